//===- InputFileTest.cpp - bounded reading of user-named files ------------===//
#include "kiln/Support/InputFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <sys/stat.h>

using namespace kiln;

namespace {

template <class T> std::string errorOf(llvm::Expected<T> value) {
  return value ? "<no error>" : llvm::toString(value.takeError());
}
std::string errorOf(llvm::Error e) { return e ? llvm::toString(std::move(e)) : "<no error>"; }

class InputFileTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("kiln-input", dir));
    file = path("k.mlir");
    std::error_code ec;
    llvm::raw_fd_ostream(file, ec) << "module {}\n";
    ASSERT_FALSE(ec);
  }
  void TearDown() override { llvm::sys::fs::remove_directories(dir); }
  std::string path(llvm::StringRef name) {
    llvm::SmallString<128> p(dir);
    llvm::sys::path::append(p, name);
    return std::string(p);
  }
  llvm::SmallString<128> dir;
  std::string file;
};

TEST(ByteSize, ParsesAndFormats) {
  EXPECT_EQ(parseByteSize("4096"), 4096u);
  EXPECT_EQ(parseByteSize("64K"), 65536u);
  EXPECT_EQ(parseByteSize("64m"), uint64_t(64) << 20);
  EXPECT_EQ(parseByteSize("4G"), uint64_t(4) << 30);
  EXPECT_EQ(parseByteSize("2T"), uint64_t(2) << 40);
  for (const char *bad : {"", "G", "-1", "1.5G", "4X", "99999999999999999999", "17179869184G"})
    EXPECT_EQ(parseByteSize(bad), std::nullopt) << bad;
  EXPECT_EQ(formatByteSize(100), "100 bytes");
  EXPECT_EQ(formatByteSize(uint64_t(64) << 20), "67108864 bytes (64 MiB)");
  EXPECT_EQ(formatByteSize(1536), "1536 bytes (1.5 KiB)");
}

TEST_F(InputFileTest, ReadsARegularFileWithinTheLimit) {
  auto buffer = readInputFile(file, "kernel file", 10);
  ASSERT_TRUE(bool(buffer)) << errorOf(std::move(buffer));
  EXPECT_EQ((*buffer)->getBuffer(), "module {}\n");
  EXPECT_EQ((*buffer)->getBufferIdentifier(), file);
  EXPECT_EQ(*(*buffer)->getBufferEnd(), '\0'); // MLIR's parser needs it
  EXPECT_EQ(errorOf(readInputFile(file, "kernel file", 9)),
            "cannot read kernel file '" + file +
                "': it holds 10 bytes, more than the input size limit of 9 bytes; set "
                "KILN_MAX_INPUT_SIZE to change it");
}

TEST_F(InputFileTest, RefusesWhatIsNoRegularFile) {
  EXPECT_EQ(errorOf(readInputFile(dir)), "cannot read '" + std::string(dir) + "': it is a folder");
  EXPECT_EQ(errorOf(readInputFile("/dev/zero", "run spec")),
            "cannot read run spec '/dev/zero': it is not a regular file (a device, FIFO or "
            "socket)");
  std::string fifo = path("fifo");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  // Checked before opening: opening a FIFO would wait for a writer.
  EXPECT_EQ(errorOf(readInputFile(fifo)),
            "cannot read '" + fifo + "': it is not a regular file (a device, FIFO or socket)");
  EXPECT_EQ(errorOf(regularFileSize(fifo, "input file")),
            "cannot read input file '" + fifo +
                "': it is not a regular file (a device, FIFO or socket)");
  EXPECT_EQ(errorOf(readInputFile(path("none"))),
            "cannot read '" + path("none") + "': No such file or directory");
  EXPECT_EQ(errorOf(regularFileSize(dir, "\"expect\" file")),
            "cannot read \"expect\" file '" + std::string(dir) + "': it is a folder");
}

TEST_F(InputFileTest, ReadsIntoAnExactlySizedBuffer) {
  EXPECT_EQ(*regularFileSize(file), 10u);
  std::vector<uint8_t> out(10);
  EXPECT_EQ(errorOf(readInputFileInto(file, out)), "<no error>");
  EXPECT_EQ(std::string(out.begin(), out.end()), "module {}\n");
  std::vector<uint8_t> wrong(11);
  EXPECT_EQ(errorOf(readInputFileInto(file, wrong)),
            "cannot read '" + file + "': it holds 10 bytes, not 11");
  EXPECT_EQ(errorOf(readInputFileInto("/dev/zero", wrong)),
            "cannot read '/dev/zero': it is not a regular file (a device, FIFO or socket)");
}

} // namespace

//===- CacheTest.cpp - the on-disk compile cache --------------------------===//
#include "kiln/Pipeline/Cache.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

#include <sys/stat.h>
#include <unistd.h>

using namespace kiln;

namespace {

class CacheTest : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> path;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("kiln-cache-test", path));
    dir = std::string(path);
  }
  void TearDown() override { llvm::sys::fs::remove_directories(dir); }
  std::string dir;
};

TEST(CacheKey, PartsAreDelimited) {
  // Length-prefixing keeps ("ab", "c") and ("a", "bc") apart.
  EXPECT_NE(Cache::key({"ab", "c"}), Cache::key({"a", "bc"}));
  EXPECT_EQ(Cache::key({"ab", "c"}), Cache::key({"ab", "c"}));
  EXPECT_EQ(Cache::key({"x"}).size(), 64u);
}

TEST_F(CacheTest, StoresAndFindsEntries) {
  Cache cache(dir);
  std::string key = Cache::key({"kernel"});
  EXPECT_FALSE(cache.lookup(key));
  ASSERT_FALSE(static_cast<bool>(cache.store(key, "payload\nwith lines\n")));
  std::optional<std::string> hit = cache.lookup(key);
  ASSERT_TRUE(hit);
  EXPECT_EQ(*hit, "payload\nwith lines\n");
  // Binary payloads survive too.
  std::string binary("\0\x01\xff\n", 4);
  ASSERT_FALSE(static_cast<bool>(cache.store(key, binary)));
  EXPECT_EQ(*cache.lookup(key), binary);
}

TEST_F(CacheTest, CorruptEntriesAreMissesAndRemoved) {
  Cache cache(dir);
  std::string key = Cache::key({"kernel"});
  ASSERT_FALSE(static_cast<bool>(cache.store(key, "the artifact")));
  {
    // Same header and length, one payload byte changed: only the checksum
    // can tell.
    auto buffer = llvm::MemoryBuffer::getFile(cache.pathFor(key));
    ASSERT_TRUE(static_cast<bool>(buffer));
    std::string content = (*buffer)->getBuffer().str();
    content.back() = 'T';
    std::error_code ec;
    llvm::raw_fd_ostream os(cache.pathFor(key), ec);
    ASSERT_FALSE(ec);
    os << content;
  }
  EXPECT_FALSE(cache.lookup(key));
  EXPECT_FALSE(llvm::sys::fs::exists(cache.pathFor(key)));
}

TEST_F(CacheTest, TruncatedEntriesAreMisses) {
  Cache cache(dir);
  std::string key = Cache::key({"kernel"});
  ASSERT_FALSE(static_cast<bool>(cache.store(key, "the artifact")));
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(cache.pathFor(key), ec); // truncates
    ASSERT_FALSE(ec);
    os << "kiln-cache-v2 " << key;
  }
  EXPECT_FALSE(cache.lookup(key));
}

/// Writes `content` as the whole file `path`.
void writeFile(const std::string &path, llvm::StringRef content) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  ASSERT_FALSE(ec);
  os << content;
}

TEST_F(CacheTest, EntriesOfAnotherKeyAreMisses) {
  // Valid entries, but one sits under the other's name: it must not be
  // served for that name (it is another kernel's binary).
  Cache cache(dir);
  std::string add = Cache::key({"k_add"}), softmax = Cache::key({"k_softmax"});
  ASSERT_FALSE(static_cast<bool>(cache.store(add, "add's artifact")));
  ASSERT_FALSE(static_cast<bool>(cache.store(softmax, "softmax's artifact")));
  ASSERT_FALSE(llvm::sys::fs::copy_file(cache.pathFor(add), cache.pathFor(softmax)));
  std::string whyNot;
  EXPECT_FALSE(cache.lookup(softmax, &whyNot));
  EXPECT_EQ(whyNot, "it holds the entry of another key (" + add + ")");
  EXPECT_FALSE(llvm::sys::fs::exists(cache.pathFor(softmax)));
  EXPECT_EQ(*cache.lookup(add), "add's artifact");
}

TEST_F(CacheTest, EntriesOfAnotherFormatAreMisses) {
  Cache cache(dir);
  std::string key = Cache::key({"kernel"});
  ASSERT_FALSE(static_cast<bool>(cache.store(key, "x")));
  writeFile(cache.pathFor(key), "kiln-cache-v1 2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881 1\nx");
  std::string whyNot;
  EXPECT_FALSE(cache.lookup(key, &whyNot));
  EXPECT_EQ(whyNot, "it is not a kiln-cache-v2 entry");
}

TEST_F(CacheTest, OnlyRegularFilesOfBoundedSizeAreRead) {
  Cache cache(dir);
  std::string key = Cache::key({"kernel"});
  std::string path = cache.pathFor(key);
  ASSERT_FALSE(static_cast<bool>(cache.store(key, "the artifact")));
  ASSERT_FALSE(llvm::sys::fs::remove(path));
  std::string whyNot;

  // A FIFO blocks whoever opens it to read; a regression must fail the
  // test, not hang it, hence the alarm.
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  ::alarm(30);
  EXPECT_FALSE(cache.lookup(key, &whyNot));
  ::alarm(0);
  EXPECT_EQ(whyNot, "it is not a regular file");
  EXPECT_FALSE(llvm::sys::fs::exists(path));

  // Reading /dev/zero to its end never ends.
  ASSERT_FALSE(llvm::sys::fs::create_link("/dev/zero", path));
  EXPECT_FALSE(cache.lookup(key, &whyNot));
  EXPECT_EQ(whyNot, "it is a symbolic link");

  // A (sparse) file over the bound is refused before anything is read.
  {
    int fd;
    ASSERT_FALSE(llvm::sys::fs::openFileForWrite(path, fd));
    ASSERT_EQ(::ftruncate(fd, Cache::kMaxEntrySize + 1), 0);
    ::close(fd);
  }
  EXPECT_FALSE(cache.lookup(key, &whyNot));
  EXPECT_EQ(whyNot, "it is " + std::to_string(Cache::kMaxEntrySize + 1) +
                        " bytes, more than an entry may have");

  // A sound entry replaces any of them.
  ASSERT_FALSE(static_cast<bool>(cache.store(key, "the artifact")));
  EXPECT_EQ(*cache.lookup(key), "the artifact");
}

} // namespace

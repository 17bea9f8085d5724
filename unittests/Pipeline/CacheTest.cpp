//===- CacheTest.cpp - the on-disk compile cache --------------------------===//
#include "kiln/Pipeline/Cache.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

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
    os << "kiln-cache-v1 ";
  }
  EXPECT_FALSE(cache.lookup(key));
}

} // namespace

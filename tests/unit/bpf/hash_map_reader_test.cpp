// readHashMap against real kernel hash maps: every entry once, whichever
// reader reads it, also while entries are being added.
#include "bpf/hash_map_reader.h"

#include <bpf/bpf.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cstring>
#include <map>
#include <thread>
#include <vector>

#include "bpf/map.h"

namespace dtrace::bpf {
namespace {

struct Entry {
  uint64_t key[2];
  uint64_t value[3];
};

class HashMapReaderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (geteuid() != 0) GTEST_SKIP() << "needs root";
  }
  static Map makeMap(uint32_t maxEntries, uint32_t flags = 0) {
    auto map = Map::create(BPF_MAP_TYPE_HASH, "test_read", sizeof Entry::key, sizeof Entry::value,
                           maxEntries, BPF_F_NO_PREALLOC | flags);
    EXPECT_TRUE(map.ok()) << map.error().message;
    return std::move(*map);
  }
  static void add(const Map& map, uint64_t first, uint64_t count) {
    std::vector<uint64_t> ks(count);
    for (uint64_t i = 0; i < count; i++) ks[i] = first + i;
    add(map, ks);
  }
  static std::array<uint64_t, 2> keyOf(uint64_t k) { return {k * 0x9e3779b97f4a7c15ull, k}; }
  static void add(const Map& map, const std::vector<uint64_t>& ks) {
    const uint64_t count = ks.size();
    std::vector<uint8_t> keys, values;
    for (uint64_t k : ks) {
      const std::array<uint64_t, 2> key = keyOf(k);
      const uint64_t value[3] = {k, k * 2, k * 3};
      keys.insert(keys.end(), reinterpret_cast<const uint8_t*>(key.data()),
                  reinterpret_cast<const uint8_t*>(key.data()) + sizeof key);
      values.insert(values.end(), reinterpret_cast<const uint8_t*>(value),
                    reinterpret_cast<const uint8_t*>(value) + sizeof value);
    }
    uint32_t n = static_cast<uint32_t>(count);
    ASSERT_EQ(bpf_map_update_batch(map.fd(), keys.data(), values.data(), &n, nullptr), 0);
    ASSERT_EQ(n, count);
  }
  // Reads the map; fails the test if an entry comes twice or is wrong.
  static std::map<uint64_t, int> readAll(const Map& map, HashMapReading* reading = nullptr) {
    std::map<uint64_t, int> seen;
    const HashMapShape shape{map.keySize(), map.valueSize()};
    const int err = readHashMap(
        map.fd(), shape,
        [&](const uint8_t* keys, const uint8_t* values, uint32_t count) {
          for (uint32_t e = 0; e < count; e++) {
            uint64_t key[2], value[3];
            std::memcpy(key, keys + e * sizeof key, sizeof key);
            std::memcpy(value, values + e * sizeof value, sizeof value);
            EXPECT_EQ(key[0], key[1] * 0x9e3779b97f4a7c15ull);
            EXPECT_EQ(value[2], key[1] * 3);
            seen[key[1]]++;
          }
        },
        reading);
    EXPECT_EQ(err, 0);
    for (const auto& [key, times] : seen) {
      if (times != 1) ADD_FAILURE() << "key " << key << " read " << times << " times";
    }
    return seen;
  }
};

TEST_F(HashMapReaderTest, SmallMapOneReader) {
  Map map = makeMap(10000);
  add(map, 0, 9000);
  HashMapReading reading;
  EXPECT_EQ(readAll(map, &reading).size(), 9000u);
  EXPECT_EQ(reading.readers, 1);
}

TEST_F(HashMapReaderTest, LargeMapEveryEntryOnceFromTwoReaders) {
  if (std::thread::hardware_concurrency() < 2) GTEST_SKIP() << "one CPU";
  for (uint32_t entries : {0u, 1u, 3000u, 20000u, 150000u, 262144u}) {
    Map map = makeMap(262144);  // 262144 buckets: some hold several entries
    if (entries) add(map, 0, entries);
    HashMapReading reading;
    EXPECT_EQ(readAll(map, &reading).size(), entries) << entries;
    // A map that fits in one batch is read in one system call.
    if (entries > 20000) {
      EXPECT_EQ(reading.readers, 2) << entries;
    }
  }
}

// The kernel's bucket of a 16-byte key in a map created with
// BPF_F_ZERO_SEED: jhash2 over its four words, seed 0 (linux/jhash.h).
uint32_t bucketOf(const std::array<uint64_t, 2>& key, uint32_t buckets) {
  uint32_t k[4];
  std::memcpy(k, key.data(), sizeof k);
  auto rol = [](uint32_t w, int s) { return (w << s) | (w >> (32 - s)); };
  uint32_t a = 0xdeadbeef + (4 << 2), b = a, c = a;
  a += k[0];
  b += k[1];
  c += k[2];
  a -= c, a ^= rol(c, 4), c += b;  // __jhash_mix
  b -= a, b ^= rol(a, 6), a += c;
  c -= b, c ^= rol(b, 8), b += a;
  a -= c, a ^= rol(c, 16), c += b;
  b -= a, b ^= rol(a, 19), a += c;
  c -= b, c ^= rol(b, 4), b += a;
  a += k[3];
  c ^= b, c -= rol(b, 14);  // __jhash_final
  a ^= c, a -= rol(c, 11);
  b ^= a, b -= rol(a, 25);
  c ^= b, c -= rol(b, 16);
  a ^= c, a -= rol(c, 4);
  b ^= a, b -= rol(a, 14);
  c ^= b, c -= rol(b, 24);
  return c & (buckets - 1);
}

// Entries in the first eighth of the buckets and in the upper half only:
// the lower reader expects entries up to the middle, and its batches run
// past it, into the upper reader's half, and are read again.
TEST_F(HashMapReaderTest, BatchesPastTheMiddleAreReadAgain) {
  if (std::thread::hardware_concurrency() < 2) GTEST_SKIP() << "one CPU";
  constexpr uint32_t kBuckets = 262144;
  Map map = makeMap(kBuckets, BPF_F_ZERO_SEED);
  std::vector<uint64_t> ks;
  for (uint64_t k = 0; ks.size() < 60000; k++) {
    const uint32_t bucket = bucketOf(keyOf(k), kBuckets);
    if (bucket < kBuckets / 8 || bucket >= kBuckets / 2) ks.push_back(k);
  }
  add(map, ks);
  HashMapReading reading;
  EXPECT_EQ(readAll(map, &reading).size(), ks.size());
  EXPECT_EQ(reading.readers, 2);
  EXPECT_GT(reading.rereads, 0u);
}

TEST_F(HashMapReaderTest, EntriesAddedWhileReadingComeOnceOrNot) {
  if (std::thread::hardware_concurrency() < 2) GTEST_SKIP() << "one CPU";
  Map map = makeMap(1 << 20);
  constexpr uint64_t kBefore = 100000, kDuring = 300000;
  add(map, 0, kBefore);
  std::atomic<bool> reading = true;
  std::thread writer([&] {
    for (uint64_t k = kBefore; k < kBefore + kDuring && reading; k += 1000) add(map, k, 1000);
  });
  for (int round = 0; round < 5; round++) {
    auto seen = readAll(map);
    for (uint64_t k = 0; k < kBefore; k++) ASSERT_EQ(seen.count(k), 1u) << k;
  }
  reading = false;
  writer.join();
}

}  // namespace
}  // namespace dtrace::bpf

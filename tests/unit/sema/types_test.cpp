// The D type table on its own: C's integer types, D's typedefs, derived
// types, and C's promotions and usual arithmetic conversions.
#include "sema/types.h"

#include <gtest/gtest.h>

namespace dtrace::sema {
namespace {

class TypesTest : public ::testing::Test {
 protected:
  const Type* named(const char* name) {
    const Type* t = types.lookup(name);
    EXPECT_NE(t, nullptr) << name;
    return t;
  }
  // The name of the type C's usual arithmetic conversions give a op b.
  std::string result(const char* a, const char* b) {
    return types.arithmeticResult(named(a), named(b))->name;
  }

  TypeTable types;
};

TEST_F(TypesTest, IntegerSizesAndSignedness) {
  struct Expect {
    const char* name;
    uint32_t size;
    bool isSigned;
  };
  for (auto [name, size, isSigned] : {
           Expect{"char", 1, true},
           Expect{"signed char", 1, true},
           Expect{"unsigned char", 1, false},
           Expect{"short", 2, true},
           Expect{"unsigned short", 2, false},
           Expect{"int", 4, true},
           Expect{"unsigned int", 4, false},
           Expect{"long", 8, true},
           Expect{"unsigned long", 8, false},
           Expect{"long long", 8, true},
           Expect{"unsigned long long", 8, false},
       }) {
    const Type* t = named(name);
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(t->size, size) << name;
    EXPECT_EQ(t->isSigned, isSigned) << name;
    EXPECT_TRUE(t->isInteger()) << name;
  }
}

TEST_F(TypesTest, KeywordSpellingsNameTheSameType) {
  EXPECT_EQ(named("unsigned"), types.uintType());
  EXPECT_EQ(named("signed"), types.intType());
  EXPECT_EQ(named("long int"), types.longType());
  EXPECT_EQ(named("unsigned long long int"), types.uint64());
  EXPECT_EQ(named("short int"), named("short"));
}

TEST_F(TypesTest, BuiltInTypedefs) {
  EXPECT_EQ(named("int8_t")->name, "signed char");
  EXPECT_EQ(named("uint8_t")->name, "unsigned char");
  EXPECT_EQ(named("int16_t")->name, "short");
  EXPECT_EQ(named("uint32_t")->name, "unsigned int");
  EXPECT_EQ(named("int64_t")->name, "long long");
  EXPECT_EQ(named("uint64_t")->name, "unsigned long long");
  EXPECT_EQ(named("size_t")->name, "unsigned long");
  EXPECT_EQ(named("ssize_t")->name, "long");
  EXPECT_EQ(named("uintptr_t")->name, "unsigned long");
  EXPECT_EQ(named("pid_t")->name, "int");
  EXPECT_EQ(named("uid_t")->name, "unsigned int");
  EXPECT_EQ(named("hrtime_t")->size, 8u);
  EXPECT_EQ(named("caddr_t")->name, "char *");
}

TEST_F(TypesTest, UnknownNameIsNotAType) {
  EXPECT_EQ(types.lookup("no_such_t"), nullptr);
  EXPECT_FALSE(types.isTypeName("no_such_t"));
  EXPECT_TRUE(types.isTypeName("uint64_t"));
}

TEST_F(TypesTest, TypedefAddsAName) {
  types.addTypedef("myint_t", types.uintType());
  EXPECT_EQ(types.lookup("myint_t"), types.uintType());
}

// A string holds strsize characters, and its buffer the terminating NUL too.
TEST_F(TypesTest, StringTypeHoldsStrsizeCharacters) {
  EXPECT_TRUE(types.stringType()->isString());
  EXPECT_EQ(types.stringType()->size, 257u);
  TypeTable small(64);
  EXPECT_EQ(small.stringType()->size, 65u);
  EXPECT_EQ(small.strsize(), 64u);
  EXPECT_EQ(small.stringBufferSize(), 65u);
}

TEST_F(TypesTest, BoundedStringsAreInternedAndCappedAtStrsize) {
  const Type* s16 = types.boundedString(16);
  EXPECT_TRUE(s16->isString());
  EXPECT_EQ(s16->size, 16u);
  EXPECT_EQ(s16->name, "string");
  EXPECT_EQ(types.boundedString(16), s16);
  EXPECT_EQ(types.boundedString(256)->size, 256u);  // 255 characters and the NUL
  EXPECT_EQ(types.boundedString(257), types.stringType());
  EXPECT_EQ(types.boundedString(1000), types.stringType());
}

TEST_F(TypesTest, PointerTypesAreInternedAndNamedAsC) {
  const Type* p = types.pointerTo(types.charType());
  EXPECT_EQ(p->name, "char *");
  EXPECT_EQ(p->size, 8u);
  EXPECT_TRUE(p->isPointer());
  EXPECT_TRUE(p->isScalar());
  EXPECT_EQ(types.pointerTo(types.charType()), p);
  EXPECT_EQ(types.pointerTo(p)->name, "char **");
}

TEST_F(TypesTest, ArrayTypes) {
  const Type* a = types.arrayOf(types.intType(), 4);
  EXPECT_EQ(a->size, 16u);
  EXPECT_EQ(a->count, 4u);
  EXPECT_EQ(a->name, "int [4]");
  EXPECT_EQ(types.arrayOf(types.intType(), 4), a);
}

TEST_F(TypesTest, IntegerForSizeAndSign) {
  EXPECT_EQ(types.integer(1, true)->name, "char");
  EXPECT_EQ(types.integer(1, false)->name, "unsigned char");
  EXPECT_EQ(types.integer(2, true)->name, "short");
  EXPECT_EQ(types.integer(4, false)->name, "unsigned int");
  EXPECT_EQ(types.integer(8, true)->name, "long");
  EXPECT_EQ(types.integer(8, false)->name, "unsigned long");
}

// dt_type_promote: no integer promotions, only an enum becomes an int.
TEST_F(TypesTest, PromotionKeepsSmallTypes) {
  EXPECT_EQ(types.promote(named("char")), named("char"));
  EXPECT_EQ(types.promote(named("unsigned char")), named("unsigned char"));
  EXPECT_EQ(types.promote(named("short")), named("short"));
  EXPECT_EQ(types.promote(named("unsigned short")), named("unsigned short"));
  EXPECT_EQ(types.promote(named("unsigned int")), types.uintType());
  EXPECT_EQ(types.promote(named("long")), types.longType());
}

TEST_F(TypesTest, UsualArithmeticConversions) {
  EXPECT_EQ(result("char", "char"), "char");
  EXPECT_EQ(result("unsigned char", "unsigned char"), "unsigned char");
  EXPECT_EQ(result("short", "unsigned short"), "unsigned short");
  EXPECT_EQ(result("unsigned char", "short"), "short");
  EXPECT_EQ(result("char", "unsigned int"), "unsigned int");
  EXPECT_EQ(result("int", "unsigned int"), "unsigned int");
  EXPECT_EQ(result("unsigned int", "int"), "unsigned int");
  EXPECT_EQ(result("int", "long"), "long");
  EXPECT_EQ(result("long", "unsigned int"), "long");
  EXPECT_EQ(result("unsigned int", "long"), "long");
  EXPECT_EQ(result("long", "unsigned long"), "unsigned long");
  EXPECT_EQ(result("long", "long long"), "long long");
  EXPECT_EQ(result("long long", "unsigned long long"), "unsigned long long");
  EXPECT_EQ(result("int64_t", "uint32_t"), "long long");
  EXPECT_EQ(result("uint64_t", "int"), "unsigned long long");
}

// C11 6.3.1.8: when the signed type has the higher rank but cannot hold
// every value of the unsigned one, both convert to the unsigned type that
// corresponds to the signed type: unsigned long + long long is
// unsigned long long. We name it unsigned long: same width and signedness,
// only the name (seen in error messages) differs.
TEST_F(TypesTest, UnsignedLongPlusLongLongIsUnsignedLong) {
  EXPECT_EQ(result("unsigned long", "long long"), "unsigned long");
}

}  // namespace
}  // namespace dtrace::sema

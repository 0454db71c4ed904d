// Expression parsing: every operator level, associativity, D's special forms.
#include <gtest/gtest.h>

#include "parse_test_util.h"

namespace dtrace::parse::testing {
namespace {

TEST(ParseExpr, MultiplicativeBindsTighterThanAdditive) {
  EXPECT_EQ(stmt("x = a + b * c"), "(= x (+ a (* b c)))");
  EXPECT_EQ(stmt("x = a * b + c"), "(= x (+ (* a b) c))");
  EXPECT_EQ(stmt("x = a - b / c % d"), "(= x (- a (% (/ b c) d)))");
}

TEST(ParseExpr, LeftAssociativeBinaryOperators) {
  EXPECT_EQ(stmt("a - b - c"), "(- (- a b) c)");
  EXPECT_EQ(stmt("a / b / c"), "(/ (/ a b) c)");
  EXPECT_EQ(stmt("a << b << c"), "(<< (<< a b) c)");
  EXPECT_EQ(stmt("a < b < c"), "(< (< a b) c)");
  EXPECT_EQ(stmt("a == b != c"), "(!= (== a b) c)");
  EXPECT_EQ(stmt("a && b && c"), "(&& (&& a b) c)");
  EXPECT_EQ(stmt("a , b , c"), "(, (, a b) c)");
}

TEST(ParseExpr, EveryPrecedenceLevel) {
  // From loosest to tightest: || ^^ && | ^ & ==/!= relational shift additive multiplicative.
  EXPECT_EQ(stmt("a || b ^^ c"), "(|| a (^^ b c))");
  EXPECT_EQ(stmt("a ^^ b && c"), "(^^ a (&& b c))");
  EXPECT_EQ(stmt("a && b | c"), "(&& a (| b c))");
  EXPECT_EQ(stmt("a | b ^ c"), "(| a (^ b c))");
  EXPECT_EQ(stmt("a ^ b & c"), "(^ a (& b c))");
  EXPECT_EQ(stmt("a & b == c"), "(& a (== b c))");
  EXPECT_EQ(stmt("a != b < c"), "(!= a (< b c))");
  EXPECT_EQ(stmt("a <= b << c"), "(<= a (<< b c))");
  EXPECT_EQ(stmt("a > b >> c"), "(> a (>> b c))");
  EXPECT_EQ(stmt("a >= b + c"), "(>= a (+ b c))");
  EXPECT_EQ(stmt("a >> b - c"), "(>> a (- b c))");
  EXPECT_EQ(stmt("a - b * c"), "(- a (* b c))");
  EXPECT_EQ(stmt("a || b && c || d"), "(|| (|| a (&& b c)) d)");
}

TEST(ParseExpr, AssignmentIsRightAssociative) {
  EXPECT_EQ(stmt("a = b = c"), "(= a (= b c))");
  EXPECT_EQ(stmt("a += b -= c"), "(+= a (-= b c))");
}

TEST(ParseExpr, CompoundAssignments) {
  for (const char* op : {"=", "*=", "/=", "%=", "+=", "-=", "<<=", ">>=", "&=", "^=", "|="}) {
    EXPECT_EQ(stmt(std::string("x ") + op + " 1"), std::string("(") + op + " x 1)") << op;
  }
}

TEST(ParseExpr, AssignmentNeedsUnaryLeftSide) {
  EXPECT_EQ(stmt("a + b = c"), "error: [D_SYNTAX] line 3: syntax error near \"=\"");
  EXPECT_EQ(stmt("(a) = c"), "(= a c)");
  EXPECT_EQ(stmt("*p = c"), "(= (* p) c)");
}

TEST(ParseExpr, Ternary) {
  EXPECT_EQ(stmt("x = a ? b : c"), "(= x (? a b c))");
  EXPECT_EQ(stmt("a ? b : c ? d : e"), "(? a b (? c d e))");
  EXPECT_EQ(stmt("a || b ? c , d : e"), "(? (|| a b) (, c d) e)");
}

TEST(ParseExpr, UnaryOperators) {
  EXPECT_EQ(stmt("x = -a"), "(= x (- a))");
  EXPECT_EQ(stmt("x = +a"), "(= x (+ a))");
  EXPECT_EQ(stmt("x = !a"), "(= x (! a))");
  EXPECT_EQ(stmt("x = ~a"), "(= x (~ a))");
  EXPECT_EQ(stmt("x = *p"), "(= x (* p))");
  EXPECT_EQ(stmt("x = &a"), "(= x (& a))");
  EXPECT_EQ(stmt("x = - - a"), "(= x (- (- a)))");
  EXPECT_EQ(stmt("++a"), "(++ a)");
  EXPECT_EQ(stmt("--a"), "(-- a)");
  EXPECT_EQ(stmt("a++"), "(post++ a)");
  EXPECT_EQ(stmt("a--"), "(post-- a)");
  EXPECT_EQ(stmt("x = -a * b"), "(= x (* (- a) b))");
  EXPECT_EQ(stmt("x = *p++"), "(= x (* (post++ p)))");
  EXPECT_EQ(stmt("x = !a && b"), "(= x (&& (! a) b))");
}

TEST(ParseExpr, SizeofTypeVersusExpression) {
  EXPECT_EQ(stmt("x = sizeof(int)"), "(= x (sizeof (type int)))");
  EXPECT_EQ(stmt("x = sizeof (struct foo *)"), "(= x (sizeof (type struct foo *)))");
  EXPECT_EQ(stmt("x = sizeof(y)"), "(= x (sizeof y))");
  EXPECT_EQ(stmt("x = sizeof y + 1"), "(= x (+ (sizeof y) 1))");
  EXPECT_EQ(stmt("x = sizeof(uint64_t)"), "(= x (sizeof (type uint64_t)))");
}

TEST(ParseExpr, Casts) {
  EXPECT_EQ(stmt("x = (int)y"), "(= x (cast (type int) y))");
  EXPECT_EQ(stmt("x = (unsigned long long)y"), "(= x (cast (type unsigned long long) y))");
  EXPECT_EQ(stmt("x = (char *)arg0"), "(= x (cast (type char *) arg0))");
  EXPECT_EQ(stmt("x = (struct task_struct *)curthread"),
            "(= x (cast (type struct task_struct *) curthread))");
  EXPECT_EQ(stmt("x = (int)(long)y"), "(= x (cast (type int) (cast (type long) y)))");
  EXPECT_EQ(stmt("x = (int)y + 1"), "(= x (+ (cast (type int) y) 1))");
  EXPECT_EQ(stmt("x = (uint32_t)y"), "(= x (cast (type uint32_t) y))");
  EXPECT_EQ(stmt("x = (string)arg0"), "(= x (cast (type string) arg0))");
  EXPECT_EQ(stmt("x = (const char * const)y"), "(= x (cast (type const char *const) y))");
  // Not a type: a parenthesised expression.
  EXPECT_EQ(stmt("x = (y) + 1"), "(= x (+ y 1))");
}

TEST(ParseExpr, CastToTypedefFromOptions) {
  ParseOptions opts;
  opts.isTypeName = [](std::string_view n, bool) { return n == "pid_t" || n == "psinfo_t"; };
  EXPECT_EQ(dump("BEGIN { x = (pid_t)y; z = (q) - y; }", opts),
            "(clause (probes \"BEGIN\") (body (= x (cast (type pid_t) y)) (= z (- q y))))\n");
  EXPECT_EQ(dump("BEGIN { x = xlate<psinfo_t *>(curthread); }", opts),
            "(clause (probes \"BEGIN\") (body (= x (xlate (type psinfo_t *) curthread))))\n");
  // Without the callback the name is unknown, and (q)y is not a cast.
  EXPECT_EQ(firstError("BEGIN { x = (pid_t)y; }"), "[D_SYNTAX] line 1: syntax error near \"y\"");
}

TEST(ParseExpr, PostfixOperators) {
  EXPECT_EQ(stmt("a[1]"), "(index a 1)");
  EXPECT_EQ(stmt("a[1, \"x\", b]"), "(index a 1 \"x\" b)");
  EXPECT_EQ(stmt("a[1][2]"), "(index (index a 1) 2)");
  EXPECT_EQ(stmt("f()"), "(call f)");
  EXPECT_EQ(stmt("printf(\"%d\\n\", a, b)"), "(call printf \"%d\\n\" a b)");
  EXPECT_EQ(stmt("s.x"), "(. s x)");
  EXPECT_EQ(stmt("p->x->y"), "(-> (-> p x) y)");
  EXPECT_EQ(stmt("p->a[2].b"), "(. (index (-> p a) 2) b)");
  EXPECT_EQ(stmt("x = p->string"), "(= x (-> p string))");
}

TEST(ParseExpr, SelfAndThis) {
  EXPECT_EQ(stmt("self->ts = timestamp"), "(= (-> self ts) timestamp)");
  EXPECT_EQ(stmt("this->x = self->y[0]"), "(= (-> this x) (index (-> self y) 0))");
}

TEST(ParseExpr, Aggregations) {
  EXPECT_EQ(stmt("@counts[execname] = count()"), "(= (index @counts execname) (call count))");
  EXPECT_EQ(stmt("@ = count()"), "(= @ (call count))");
  EXPECT_EQ(stmt("@[pid, tid] = sum(arg0)"), "(= (index @ pid tid) (call sum arg0))");
  EXPECT_EQ(stmt("@q = quantize(x)"), "(= @q (call quantize x))");
}

TEST(ParseExpr, MacroVariables) {
  EXPECT_EQ(stmt("x = $1"), "(= x $1)");
  EXPECT_EQ(stmt("x = $$1"), "(= x $$1)");
  EXPECT_EQ(stmt("x = $target"), "(= x $target)");
  EXPECT_EQ(stmt("x = $pid + $10"), "(= x (+ $pid $10))");
  auto r = parse("BEGIN { $$2; }");
  ASSERT_TRUE(r.diags.empty());
  EXPECT_TRUE(firstExpr(r).isStringMacro);
  EXPECT_EQ(firstExpr(r).text, "2");
  EXPECT_EQ(firstExpr(r).kind, ast::ExprKind::MacroVar);
}

TEST(ParseExpr, StringofOffsetofXlate) {
  EXPECT_EQ(stmt("x = stringof(y)"), "(= x (stringof y))");
  EXPECT_EQ(stmt("x = stringof y->z"), "(= x (stringof (-> y z)))");
  EXPECT_EQ(stmt("x = offsetof(struct foo, bar)"), "(= x (offsetof (type struct foo) bar))");
  EXPECT_EQ(stmt("x = offsetof(struct foo, a.b)"), "(= x (offsetof (type struct foo) a.b))");
  EXPECT_EQ(stmt("x = xlate<struct psinfo *>(curthread)"),
            "(= x (xlate (type struct psinfo *) curthread))");
  EXPECT_EQ(stmt("x = xlate<struct foo>(a)->b"), "(= x (-> (xlate (type struct foo) a) b))");
  EXPECT_EQ(stmt("x = a > b"), "(= x (> a b))");
}

TEST(ParseExpr, ModuleScopedIdentifiers) {
  EXPECT_EQ(stmt("x = vmlinux`jiffies"), "(= x vmlinux`jiffies)");
  EXPECT_EQ(stmt("x = `max_pid"), "(= x `max_pid)");
}

TEST(ParseExpr, TypeNameFollowedByAssignmentIsAVariable) {
  // DTrace reads a type name followed by =, ++, -- or [ as a variable.
  EXPECT_EQ(stmt("size_t = 1"), "(= size_t 1)");
  EXPECT_EQ(stmt("uint64_t[1] = 2"), "(= (index uint64_t 1) 2)");
}

TEST(ParseExpr, OperatorLocations) {
  auto r = parse("BEGIN\n{\n  x =\n  a +\n  b;\n}");
  ASSERT_TRUE(r.diags.empty());
  const ast::Expr& assign = firstExpr(r);
  EXPECT_EQ(assign.loc.line, 3u);
  EXPECT_EQ(assign.operands[0]->loc.line, 3u);
  EXPECT_EQ(assign.operands[0]->loc.column, 3u);
  // A binary operator is placed where DTrace's parser builds it: at the
  // token after its right operand (the ";").
  EXPECT_EQ(assign.operands[1]->loc.line, 5u);
  EXPECT_EQ(assign.operands[1]->operands[1]->loc.line, 5u);
}

}  // namespace
}  // namespace dtrace::parse::testing

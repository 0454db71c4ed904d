// json(s, selector): the value the selector names in the JSON text s, as
// illumos's dtrace_json() finds it: one pass of its state machine over s,
// byte by byte in a bpf_loop callback, after the selector ("a.b[2].c") is
// split into its elements in place. A string value comes without its
// quotes; an object or array comes whole; anything else that does not
// match (a malformed text, a missing key) is NULL.
#include <utility>

#include "codegen/emitter.h"

namespace dtrace::codegen {

using namespace bpf;
using ast::Expr;

namespace {

// dtrace_json()'s states, and two of ours that read the selector without
// moving on in s: to the next element, and its array index.
enum JsonState : int32_t {
  kRest,
  kObject,
  kString,
  kEscape,
  kUnicode,
  kColon,
  kComma,
  kIdentifier,
  kNumber,
  kFraction,
  kExponent,
  kValue,
  kCollect,
  kNextElement,
  kArrayIndex,
};

// The loop state words.
enum JsonWord {
  kCur,        // the index in s
  kState,      // a JsonState
  kArrayElem,  // the array index the current element selects
  kArrayPos,   // the index of the array value being read
  kOut,        // bytes of the value being built
  kElem,       // the current element's start in the element list
  kElems,      // elements left, the current one included
  kKeyAt,      // how far the key being read matches the element; the index being read
  kBraces,     // of a value being collected whole
  kBrackets,
  kFlags,
  kCount,       // digits of a \u escape; where the array index is
  kFound,       // 1 once the value is in the output area
  kIndexValue,  // the array index read so far
};

// kFlags bits: dtrace_json()'s booleans, and ours.
constexpr int32_t kIsKey = 1;       // string_is_key
constexpr int32_t kCollecting = 2;  // collect_object: a string inside a value taken whole
constexpr int32_t kFoundKey = 4;    // found_key: the next value is the one selected
constexpr int32_t kInArray = 8;     // in_array
constexpr int32_t kKeyMatches = 16;
constexpr int32_t kNegative = 32;  // the array index has a '-'

}  // namespace

void ProgramEmitter::jsonValue(const Expr& call, Reg base, int32_t offset, uint32_t size) {
  const uint32_t n = layout_.stringTempSize;
  const int32_t text = subrArea(0), list = subrArea(1);
  subrDepth_++;
  const int32_t out = subrArea(0);  // the value being built
  subrDepth_--;
  const UnsetStringRead ifNull = std::exchange(nullResult_, {});
  operandInto(*call.operands[0], 0);
  operandInto(*call.operands[1], 1);
  auto word = [this](int w) { return static_cast<int16_t>(loopState(w)); };

  // The selector's elements, each ended by a NUL: "[1].a[2]" becomes
  // "1\0a\02\0" (a leading '[' and every ']' are dropped).
  as_.emit(st(Size::DW, R9, word(kOut), 0));
  as_.emit(st(Size::DW, R9, word(kElems), 1));
  loop(n, [this, list, n, word](Label stop) {
    Label next = as_.newLabel(), store = as_.newLabel(), split = as_.newLabel();
    loadByte(list, R6, n, stop);
    as_.emit(mov64(R7, R0));
    as_.jumpIf(BPF_JEQ, R7, 0, stop);
    as_.jumpIf(BPF_JEQ, R7, ']', next);
    as_.jumpIf(BPF_JEQ, R7, '.', split);
    as_.jumpIf(BPF_JNE, R7, '[', store);
    as_.jumpIf(BPF_JEQ, R6, 0, next);
    as_.bind(split);
    as_.emit(ldx(Size::DW, R1, R9, word(kElems)));
    as_.emit(alu64(BPF_ADD, R1, 1));
    as_.emit(stx(Size::DW, R9, word(kElems), R1));
    as_.emit(mov64(R7, 0));
    as_.bind(store);
    as_.emit(ldx(Size::DW, R1, R9, word(kOut)));
    as_.jumpIf(BPF_JGE, R1, static_cast<int32_t>(n), stop);
    as_.emit(mov64(R2, R9));
    as_.emit(alu64(BPF_ADD, R2, R1));
    as_.emit(stx(Size::B, R2, static_cast<int16_t>(list), R7));
    as_.emit(alu64(BPF_ADD, R1, 1));
    as_.emit(stx(Size::DW, R9, word(kOut), R1));
    as_.bind(next);
  });
  {
    Label ended = as_.newLabel();
    as_.emit(ldx(Size::DW, R1, R9, word(kOut)));
    as_.jumpIf(BPF_JGE, R1, static_cast<int32_t>(n), ended);
    as_.emit(alu64(BPF_ADD, R1, R9));
    as_.emit(st(Size::B, R1, static_cast<int16_t>(list), 0));
    as_.bind(ended);
  }

  for (int w : {kCur, kArrayElem, kArrayPos, kOut, kElem, kKeyAt, kBraces, kBrackets, kFlags,
                kCount, kFound, kIndexValue}) {
    as_.emit(st(Size::DW, R9, word(w), 0));
  }
  as_.emit(st(Size::DW, R9, word(kState), kRest));
  // Each byte of s takes one iteration, reading an identifier's or a
  // number's end two; the selector's elements and indexes take the rest.
  loop(4 * n, [this, text, list, out, n, word](Label stop) {
    auto setWord = [&](int w, int32_t v) { as_.emit(st(Size::DW, R9, word(w), v)); };
    auto getWord = [&](Reg r, int w) { as_.emit(ldx(Size::DW, r, R9, word(w))); };
    auto putWord = [&](int w, Reg r) { as_.emit(stx(Size::DW, R9, word(w), r)); };
    auto addToWord = [&](int w, int32_t v) {
      getWord(R1, w);
      as_.emit(alu64(BPF_ADD, R1, v));
      putWord(w, R1);
    };
    auto ifFlag = [&](int32_t bit, Label yes) {
      getWord(R1, kFlags);
      as_.emit(alu64(BPF_AND, R1, bit));
      as_.jumpIf(BPF_JNE, R1, 0, yes);
    };
    auto ifNoFlag = [&](int32_t bit, Label no) {
      getWord(R1, kFlags);
      as_.emit(alu64(BPF_AND, R1, bit));
      as_.jumpIf(BPF_JEQ, R1, 0, no);
    };
    auto setFlags = [&](int32_t bits) {
      getWord(R1, kFlags);
      as_.emit(alu64(BPF_OR, R1, bits));
      putWord(kFlags, R1);
    };
    auto clearFlags = [&](int32_t bits) {
      getWord(R1, kFlags);
      as_.emit(alu64(BPF_AND, R1, ~bits));
      putWord(kFlags, R1);
    };
    auto ifSpace = [&](Label yes) {  // isspace(c)
      as_.jumpIf(BPF_JEQ, R7, ' ', yes);
      as_.emit(mov64(R1, R7));
      as_.emit(alu64(BPF_SUB, R1, '\t'));
      as_.jumpIf(BPF_JLE, R1, '\r' - '\t', yes);
    };
    auto ifInRange = [&](int32_t first, int32_t last, Label yes) {
      as_.emit(mov64(R1, R7));
      as_.emit(alu64(BPF_SUB, R1, first));
      as_.jumpIf(BPF_JLE, R1, last - first, yes);
    };
    // The output area ends here (*dd = '\0').
    auto terminate = [&] {
      getWord(R1, kOut);
      as_.jumpIf(BPF_JGE, R1, static_cast<int32_t>(n), stop);
      as_.emit(alu64(BPF_ADD, R1, R9));
      as_.emit(st(Size::B, R1, static_cast<int16_t>(out), 0));
    };
    // *dd++ = c; a key being read is matched against the element as it goes.
    auto append = [&] {
      Label done = as_.newLabel(), mismatch = as_.newLabel();
      getWord(R1, kOut);
      as_.jumpIf(BPF_JGE, R1, static_cast<int32_t>(n - 1), stop);
      as_.emit(mov64(R2, R9));
      as_.emit(alu64(BPF_ADD, R2, R1));
      as_.emit(stx(Size::B, R2, static_cast<int16_t>(out), R7));
      as_.emit(alu64(BPF_ADD, R1, 1));
      putWord(kOut, R1);
      getWord(R1, kFlags);
      as_.emit(alu64(BPF_AND, R1, kIsKey | kKeyMatches));
      as_.jumpIf(BPF_JNE, R1, kIsKey | kKeyMatches, done);
      getWord(R1, kKeyAt);
      loadByte(list, R1, n, mismatch);
      as_.jumpIf(BPF_JNE, R0, R7, mismatch);
      addToWord(kKeyAt, 1);
      as_.jump(done);
      as_.bind(mismatch);
      clearFlags(kKeyMatches);
      as_.bind(done);
    };
    // A scalar value ended: the answer if it is the one selected and no
    // element is left to descend by, else no answer at all.
    auto scalarEnded = [&](Label notSelected) {
      Label found = as_.newLabel();
      ifNoFlag(kFoundKey, notSelected);
      getWord(R1, kElems);
      as_.jumpIf(BPF_JLE, R1, 1, found);
      as_.jump(stop);
      as_.bind(found);
      setWord(kFound, 1);
      as_.jump(stop);
    };
    // The array index the element at kElem names (dtrace_strtoll, base 10).
    auto readIndex = [&] {
      getWord(R1, kElem);
      putWord(kKeyAt, R1);
      setWord(kIndexValue, 0);
      setWord(kCount, 0);
      clearFlags(kNegative);
      setWord(kState, kArrayIndex);
    };

    Label advance = as_.newLabel(), stay = as_.newLabel();
    Label rest = as_.newLabel(), object = as_.newLabel(), string = as_.newLabel(),
          escape = as_.newLabel(), unicode = as_.newLabel(), colon = as_.newLabel(),
          comma = as_.newLabel(), identifier = as_.newLabel(), number = as_.newLabel(),
          fraction = as_.newLabel(), exponent = as_.newLabel(), value = as_.newLabel(),
          collect = as_.newLabel(), nextElement = as_.newLabel(), arrayIndex = as_.newLabel();
    getWord(R8, kState);
    as_.jumpIf(BPF_JEQ, R8, kNextElement, nextElement);
    as_.jumpIf(BPF_JEQ, R8, kArrayIndex, arrayIndex);
    getWord(R1, kCur);
    loadByte(text, R1, n, stop);
    as_.emit(mov64(R7, R0));  // c
    as_.jumpIf(BPF_JEQ, R7, 0, stop);
    const std::pair<JsonState, Label> states[] = {
        {kRest, rest},         {kObject, object},         {kString, string},
        {kEscape, escape},     {kUnicode, unicode},       {kColon, colon},
        {kComma, comma},       {kIdentifier, identifier}, {kNumber, number},
        {kFraction, fraction}, {kExponent, exponent},     {kValue, value},
        {kCollect, collect}};
    for (const auto& [s, label] : states) as_.jumpIf(BPF_JEQ, R8, s, label);
    as_.jump(stop);

    // Past the current element's NUL, to the next element: an array's
    // index, or an object's key.
    as_.bind(nextElement);
    {
      Label object = as_.newLabel();
      getWord(R1, kElem);
      loadByte(list, R1, n, stop);
      as_.emit(alu64(BPF_ADD, R1, 1));
      putWord(kElem, R1);
      as_.jumpIf(BPF_JNE, R0, 0, stay);
      ifNoFlag(kInArray, object);
      readIndex();
      as_.jump(stay);
      as_.bind(object);
      clearFlags(kFoundKey);
      setWord(kState, kObject);
      as_.jump(stay);
    }

    // Blanks, a sign, then decimal digits; the value at index 0 is the one
    // selected at once.
    as_.bind(arrayIndex);
    {
      Label digits = as_.newLabel(), negative = as_.newLabel(), skip = as_.newLabel(),
            done = as_.newLabel(), positive = as_.newLabel();
      getWord(R1, kKeyAt);
      loadByte(list, R1, n, done);
      as_.emit(mov64(R7, R0));
      getWord(R2, kCount);
      as_.jumpIf(BPF_JNE, R2, 0, digits);
      as_.jumpIf(BPF_JEQ, R7, ' ', skip);
      as_.jumpIf(BPF_JEQ, R7, '\t', skip);
      setWord(kCount, 1);
      as_.jumpIf(BPF_JEQ, R7, '-', negative);
      as_.jumpIf(BPF_JEQ, R7, '+', skip);
      as_.bind(digits);
      as_.emit(mov64(R3, R7));
      as_.emit(alu64(BPF_SUB, R3, '0'));
      as_.jumpIf(BPF_JGT, R3, 9, done);
      getWord(R2, kIndexValue);
      as_.emit(alu64(BPF_MUL, R2, 10));
      as_.emit(alu64(BPF_ADD, R2, R3));
      putWord(kIndexValue, R2);
      as_.jump(skip);
      as_.bind(negative);
      setFlags(kNegative);
      as_.bind(skip);
      addToWord(kKeyAt, 1);
      as_.jump(stay);
      as_.bind(done);
      getWord(R2, kIndexValue);
      ifNoFlag(kNegative, positive);
      as_.emit(neg64(R2));
      as_.bind(positive);
      putWord(kArrayElem, R2);
      setWord(kArrayPos, 0);
      clearFlags(kFoundKey);
      setWord(kState, kValue);
      as_.jumpIf(BPF_JNE, R2, 0, stay);
      setFlags(kFoundKey);
      as_.jump(stay);
    }

    as_.bind(rest);  // before the top-level object or array
    {
      Label array = as_.newLabel();
      ifSpace(advance);
      as_.jumpIf(BPF_JEQ, R7, '[', array);
      as_.jumpIf(BPF_JNE, R7, '{', stop);
      setWord(kState, kObject);
      as_.jump(advance);
      as_.bind(array);
      setFlags(kInArray);
      readIndex();
      as_.jump(advance);
    }

    as_.bind(object);  // a key, or the end of an object without the key
    ifSpace(advance);
    as_.jumpIf(BPF_JNE, R7, '"', stop);
    setFlags(kIsKey | kKeyMatches);
    getWord(R1, kElem);
    putWord(kKeyAt, R1);
    setWord(kState, kString);
    as_.jump(advance);

    as_.bind(string);
    {
      Label notBackslash = as_.newLabel(), notCollected = as_.newLabel(), notKey = as_.newLabel(),
            afterKey = as_.newLabel(), toComma = as_.newLabel();
      as_.jumpIf(BPF_JNE, R7, '\\', notBackslash);
      append();
      setWord(kState, kEscape);
      as_.jump(advance);
      as_.bind(notBackslash);
      Label closing = as_.newLabel();
      as_.jumpIf(BPF_JEQ, R7, '"', closing);
      append();
      as_.jump(advance);
      as_.bind(closing);
      ifNoFlag(kCollecting, notCollected);
      append();
      clearFlags(kCollecting);
      setWord(kState, kCollect);
      as_.jump(advance);
      as_.bind(notCollected);
      terminate();
      setWord(kOut, 0);
      ifNoFlag(kIsKey, notKey);
      // The key is the element's if every byte matched and the element ends.
      ifNoFlag(kKeyMatches, afterKey);
      getWord(R1, kKeyAt);
      loadByte(list, R1, n, afterKey);
      as_.jumpIf(BPF_JNE, R0, 0, afterKey);
      setFlags(kFoundKey);
      as_.bind(afterKey);
      clearFlags(kIsKey | kKeyMatches);
      setWord(kState, kColon);
      as_.jump(advance);
      as_.bind(notKey);
      scalarEnded(toComma);
      as_.bind(toComma);
      setWord(kState, kComma);
      as_.jump(advance);
    }

    as_.bind(escape);
    {
      Label notUnicode = as_.newLabel();
      append();
      as_.jumpIf(BPF_JNE, R7, 'u', notUnicode);
      setWord(kCount, 0);
      setWord(kState, kUnicode);
      as_.jump(advance);
      as_.bind(notUnicode);
      setWord(kState, kString);
      as_.jump(advance);
    }

    as_.bind(unicode);  // four hexadecimal digits
    {
      Label hex = as_.newLabel();
      ifInRange('0', '9', hex);
      as_.emit(mov64(R1, R7));
      as_.emit(alu64(BPF_OR, R1, 0x20));
      as_.emit(alu64(BPF_SUB, R1, 'a'));
      as_.jumpIf(BPF_JGT, R1, 5, stop);
      as_.bind(hex);
      append();
      addToWord(kCount, 1);
      as_.jumpIf(BPF_JNE, R1, 4, advance);
      setWord(kState, kString);
      as_.jump(advance);
    }

    as_.bind(colon);
    ifSpace(advance);
    as_.jumpIf(BPF_JNE, R7, ':', stop);
    setWord(kState, kValue);
    as_.jump(advance);

    as_.bind(comma);  // the next key or array value, or the end without the one selected
    {
      Label inArray = as_.newLabel();
      ifSpace(advance);
      as_.jumpIf(BPF_JNE, R7, ',', stop);
      ifFlag(kInArray, inArray);
      setWord(kState, kObject);
      as_.jump(advance);
      as_.bind(inArray);
      setWord(kState, kValue);
      addToWord(kArrayPos, 1);
      getWord(R2, kArrayElem);
      as_.jumpIf(BPF_JNE, R1, R2, advance);
      setFlags(kFoundKey);
      as_.jump(advance);
    }

    // true, false or null; the byte after it is read again.
    as_.bind(identifier);
    {
      Label letter = as_.newLabel(), five = as_.newLabel(), keyword = as_.newLabel(),
            toComma = as_.newLabel();
      ifInRange('a', 'z', letter);
      getWord(R6, kOut);  // its length
      terminate();
      setWord(kOut, 0);
      as_.emit(ldx(Size::DW, R1, R9, static_cast<int16_t>(out)));  // with its NUL
      as_.jumpIf(BPF_JEQ, R6, 5, five);
      as_.jumpIf(BPF_JNE, R6, 4, stop);
      as_.emit(ldImm64(R2, 0xffffffffffULL));
      as_.emit(alu64(BPF_AND, R1, R2));
      as_.emit(ldImm64(R2, 0x0065757274ULL));  // "true"
      as_.jumpIf(BPF_JEQ, R1, R2, keyword);
      as_.emit(ldImm64(R2, 0x006c6c756eULL));  // "null"
      as_.jumpIf(BPF_JEQ, R1, R2, keyword);
      as_.jump(stop);
      as_.bind(five);
      as_.emit(ldImm64(R2, 0xffffffffffffULL));
      as_.emit(alu64(BPF_AND, R1, R2));
      as_.emit(ldImm64(R2, 0x0065736c6166ULL));  // "false"
      as_.jumpIf(BPF_JNE, R1, R2, stop);
      as_.bind(keyword);
      scalarEnded(toComma);
      as_.bind(toComma);
      setWord(kState, kComma);
      as_.jump(stay);
      as_.bind(letter);
      append();
      as_.jump(advance);
    }

    // A number: digits, a fraction, an exponent; the byte after it is read
    // again. Each state's checks fall into the next state's.
    as_.bind(number);
    {
      Label notDot = as_.newLabel();
      as_.jumpIf(BPF_JNE, R7, '.', notDot);
      append();
      setWord(kState, kFraction);
      as_.jump(advance);
      as_.bind(notDot);
      as_.jumpIf(BPF_JEQ, R7, 'x', stop);  // no hexadecimal or octal
      as_.jumpIf(BPF_JEQ, R7, 'X', stop);
    }
    as_.bind(fraction);
    {
      Label notE = as_.newLabel(), e = as_.newLabel();
      as_.jumpIf(BPF_JEQ, R7, 'e', e);
      as_.jumpIf(BPF_JNE, R7, 'E', notE);
      as_.bind(e);
      append();
      setWord(kState, kExponent);
      as_.jump(advance);
      as_.bind(notE);
      as_.jumpIf(BPF_JEQ, R7, '+', stop);  // a sign only in the exponent
      as_.jumpIf(BPF_JEQ, R7, '-', stop);
    }
    as_.bind(exponent);
    {
      Label more = as_.newLabel(), toComma = as_.newLabel();
      ifInRange('0', '9', more);
      as_.jumpIf(BPF_JEQ, R7, '+', more);
      as_.jumpIf(BPF_JEQ, R7, '-', more);
      terminate();
      setWord(kOut, 0);
      scalarEnded(toComma);
      as_.bind(toComma);
      setWord(kState, kComma);
      as_.jump(stay);
      as_.bind(more);
      append();
      as_.jump(advance);
    }

    as_.bind(value);
    {
      Label nested = as_.newLabel(), whole = as_.newLabel(), array = as_.newLabel(),
            counted = as_.newLabel(), notNested = as_.newLabel(), notString = as_.newLabel(),
            objectNext = as_.newLabel();
      ifSpace(advance);
      as_.jumpIf(BPF_JEQ, R7, '{', nested);
      as_.jumpIf(BPF_JNE, R7, '[', notNested);
      as_.bind(nested);
      // The value selected, with elements left: descend by the next one.
      getWord(R1, kElems);
      as_.jumpIf(BPF_JLE, R1, 1, whole);
      ifNoFlag(kFoundKey, whole);
      addToWord(kElems, -1);
      setWord(kOut, 0);
      clearFlags(kInArray);
      as_.jumpIf(BPF_JNE, R7, '[', objectNext);
      setFlags(kInArray);
      as_.bind(objectNext);
      setWord(kState, kNextElement);
      as_.jump(advance);
      // Else the whole value is read: skipped, or the answer.
      as_.bind(whole);
      as_.jumpIf(BPF_JEQ, R7, '[', array);
      setWord(kBraces, 1);
      as_.jump(counted);
      as_.bind(array);
      setWord(kBrackets, 1);
      as_.bind(counted);
      append();
      setWord(kState, kCollect);
      as_.jump(advance);
      as_.bind(notNested);
      as_.jumpIf(BPF_JNE, R7, '"', notString);
      setWord(kState, kString);
      as_.jump(advance);
      as_.bind(notString);
      Label word = as_.newLabel(), digits = as_.newLabel();
      ifInRange('a', 'z', word);  // true, false, null
      ifInRange('0', '9', digits);
      as_.jumpIf(BPF_JNE, R7, '-', stop);
      as_.bind(digits);
      append();
      setWord(kState, kNumber);
      as_.jump(advance);
      as_.bind(word);
      append();
      setWord(kState, kIdentifier);
      as_.jump(advance);
    }

    // A value read whole, to its closing bracket: skipped, or the answer.
    as_.bind(collect);
    {
      Label notQuote = as_.newLabel(), notCloseBracket = as_.newLabel(),
            notCloseBrace = as_.newLabel(), notOpenBrace = as_.newLabel(), check = as_.newLabel(),
            skipped = as_.newLabel();
      append();
      as_.jumpIf(BPF_JNE, R7, '"', notQuote);
      setFlags(kCollecting);
      setWord(kState, kString);
      as_.jump(advance);
      as_.bind(notQuote);
      as_.jumpIf(BPF_JNE, R7, ']', notCloseBracket);
      getWord(R1, kBrackets);
      as_.jumpIf(BPF_JEQ, R1, 0, stop);  // unbalanced
      addToWord(kBrackets, -1);
      as_.jump(check);
      as_.bind(notCloseBracket);
      as_.jumpIf(BPF_JNE, R7, '}', notCloseBrace);
      getWord(R1, kBraces);
      as_.jumpIf(BPF_JEQ, R1, 0, stop);
      addToWord(kBraces, -1);
      as_.jump(check);
      as_.bind(notCloseBrace);
      as_.jumpIf(BPF_JNE, R7, '{', notOpenBrace);
      addToWord(kBraces, 1);
      as_.jump(check);
      as_.bind(notOpenBrace);
      as_.jumpIf(BPF_JNE, R7, '[', check);
      addToWord(kBrackets, 1);
      as_.bind(check);
      getWord(R1, kBrackets);
      getWord(R2, kBraces);
      as_.emit(alu64(BPF_OR, R1, R2));
      as_.jumpIf(BPF_JNE, R1, 0, advance);
      ifNoFlag(kFoundKey, skipped);
      terminate();
      setWord(kFound, 1);
      as_.jump(stop);
      as_.bind(skipped);
      setWord(kOut, 0);
      setWord(kState, kComma);
      as_.jump(advance);
    }

    as_.bind(advance);
    addToWord(kCur, 1);
    as_.bind(stay);
  });

  Label none = as_.newLabel(), done = as_.newLabel();
  as_.emit(ldx(Size::DW, R1, R9, word(kFound)));
  as_.jumpIf(BPF_JEQ, R1, 0, none);
  copyString(R9, out, n, base, offset, size);
  as_.jump(done);
  as_.bind(none);
  unsetStringInto(ifNull, base, offset, size);
  as_.bind(done);
}

}  // namespace dtrace::codegen

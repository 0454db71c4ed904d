# C++: probes in an inline function and a template that two translation
# units both emit. The linker keeps one copy of each, and the notes of the
# copies it drops go with them (the note is in the code's section group):
# one note per site that survives, each at a nop of the program.
. ./gen-common.sh
cat > shop.d <<'EOS'
provider shop {
	probe order__placed(const char *, unsigned int);
	probe item__priced(long long, int);
};
EOS
$DTRACE -h -s shop.d || exit 1
cat > shop.hpp <<'EOS'
#include <string>
#include "shop.h"
inline unsigned place(const std::string &who, unsigned n) {
	SHOP_ORDER_PLACED(who.c_str(), n);
	return n + 1;
}
template <typename T> T price(T cents) {
	if (SHOP_ITEM_PRICED_ENABLED()) cents++;
	SHOP_ITEM_PRICED(cents, static_cast<int>(sizeof(T)));
	return cents;
}
EOS
cat > a.cc <<'EOS'
#include "shop.hpp"
long long a() { return place("a", 1) + price(100LL); }
EOS
cat > b.cc <<'EOS'
#include <iostream>
#include "shop.hpp"
long long a();
int main() { std::cout << a() + place("b", 2) + price(7LL) << "\n"; }
EOS
for f in a b; do
  g++ -std=c++17 -O1 -fno-inline -Wall -Wextra -Werror -Wold-style-cast -c $f.cc -o $f.o || exit 1
done
for f in a b; do echo "$f.o: $(notes $f.o | awk '{ print $2 }' | sort | paste -sd' ')"; done
$DTRACE -G -s shop.d a.o b.o || exit 1
g++ a.o b.o shop.o -o shop || exit 1
./shop
note_summary shop | sort | uniq -c | sed 's/^ *//'
notes shop | while read -r provider name location rest; do
  objdump -d --start-address=$((location)) --stop-address=$((location + 1)) shop |
    grep -q "nop" || echo "$name: no nop at $location"
done

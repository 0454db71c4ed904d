# dtrace -G's object links into position-independent and fixed-address
# executables, static ones, and shared libraries (whose semaphores stay
# their own: hidden); in each the notes give the semaphore's address.
. ./gen-common.sh
cp "$USDT/gen-myapp.d" myapp.d; cp "$USDT/gen-app.c" app.c
$DTRACE -h -s myapp.d || exit 1
gcc -O2 -fPIC -Wall -Werror -c app.c -o app.o || exit 1
$DTRACE -G -s myapp.d app.o || exit 1
summary() {
  echo "$1: $(./"$2" | tr -d '\n')"
  note_summary "$2" | sed 's/^/  /'
}
gcc -pie app.o myapp.o -o app-pie && summary pie app-pie
gcc -no-pie app.o myapp.o -o app-fixed && summary no-pie app-fixed
gcc -static app.o myapp.o -o app-static && summary static app-static
# A library with the probes, its own copy of the semaphores, and a program
# that fires them through it.
sed 's/int main(int argc, char \*\*argv)/int lib_main(int argc, char **argv)/' app.c > lib.c
gcc -O2 -fPIC -Wall -Werror -c lib.c -o lib.o || exit 1
$DTRACE -G -s myapp.d -o libprobes.o lib.o || exit 1
gcc -shared lib.o libprobes.o -o libmyapp.so || exit 1
printf 'int lib_main(int, char **);\nint main(int c, char **v) { return lib_main(c, v); }\n' > main.c
gcc main.c -L. -lmyapp -Wl,-rpath,"$PWD" -o app-shared || exit 1
echo "shared library: $(./app-shared | tr -d '\n'), $(notes app-shared | wc -l) notes in the program"
note_summary libmyapp.so | sed 's/^/  /'
readelf -sW libmyapp.so | awk '/_semaphore/ { print "  " $8, $5, $6 }' | sort

// Four threads take one mutex 500 times each, holding it across a short
// sleep so that the others block on it, then take one rwlock 100 times as
// writers and 100 times as readers. Prints the locks' addresses.
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

enum { kThreads = 4, kMutexRounds = 500, kRwRounds = 100 };

static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_rwlock_t rwlock = PTHREAD_RWLOCK_INITIALIZER;
static long counter;

static void *worker(void *arg) {
  for (int i = 0; i < kMutexRounds; i++) {
    pthread_mutex_lock(&mutex);
    counter++;
    usleep(20);
    pthread_mutex_unlock(&mutex);
  }
  for (int i = 0; i < kRwRounds; i++) {
    pthread_rwlock_wrlock(&rwlock);
    counter++;
    pthread_rwlock_unlock(&rwlock);
    pthread_rwlock_rdlock(&rwlock);
    pthread_rwlock_unlock(&rwlock);
  }
  return arg;
}

int main(void) {
  pthread_t threads[kThreads];
  for (int i = 0; i < kThreads; i++) pthread_create(&threads[i], 0, worker, 0);
  for (int i = 0; i < kThreads; i++) pthread_join(threads[i], 0);
  printf("mutex %lx\nrwlock %lx\n", (unsigned long)&mutex, (unsigned long)&rwlock);
  return 0;
}

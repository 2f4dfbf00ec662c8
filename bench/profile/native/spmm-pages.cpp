// The bench's C++ CSR loop (bench/peers/spmm.cpp, same loop) with its arrays on 4 KB pages or on 2 MB pages,
// timed in alternation in one process: how much of the time past the caches is address translation (TLB misses
// and page walks), which cachegrind does not model. Huge pages come from madvise(MADV_HUGEPAGE) on 2 MB-aligned
// memory (transparent huge pages in "madvise" or "always" mode); AnonHugePages in /proc/self/smaps_rollup says
// whether the kernel granted them.
// Usage: spmm-pages DIR M K N NNZ ROUNDS -> JSON {small_ms, huge_ms, ratio, huge_kb}: medians over ROUNDS.
#include <sys/mman.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

static void* alloc(size_t bytes, bool huge) {
  const size_t H = 2 << 20;
  size_t len = (bytes + H - 1) / H * H;
  void* p = mmap(nullptr, len + H, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) { std::perror("mmap"); std::exit(1); }
  char* a = (char*)(((uintptr_t)p + H - 1) / H * H);
  madvise(a, len, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
  std::memset(a, 0, bytes);  // touch now, so the page faults are not timed
  return a;
}

template <class T> static T* load(const std::string& path, size_t n, bool huge) {
  T* v = (T*)alloc(n * sizeof(T), huge);
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f || std::fread(v, sizeof(T), n, f) != n) { std::perror(path.c_str()); std::exit(1); }
  std::fclose(f);
  return v;
}

struct Csr { int* ptr; int* cols; float* vals; float* B; float* C; };

static Csr setup(const std::string& dir, int M, int K, int N, int NNZ, bool huge) {
  Csr a;
  int* rows = load<int>(dir + "/rows.bin", NNZ, false);
  a.cols = load<int>(dir + "/cols.bin", NNZ, huge);
  a.vals = load<float>(dir + "/vals.bin", NNZ, huge);
  a.B = load<float>(dir + "/b.bin", (size_t)K * N, huge);
  a.ptr = (int*)alloc((M + 1) * sizeof(int), huge);
  for (int p = 0; p < NNZ; p++) a.ptr[rows[p] + 1]++;
  for (int i = 0; i < M; i++) a.ptr[i + 1] += a.ptr[i];
  a.C = (float*)alloc((size_t)M * N * sizeof(float), huge);
  return a;
}

static double once(const Csr& a, int M, int N) {
  auto s = std::chrono::steady_clock::now();
  std::fill(a.C, a.C + (size_t)M * N, 0.f);
  for (int i = 0; i < M; i++) {
    float* c = &a.C[(size_t)i * N];
    for (int p = a.ptr[i]; p < a.ptr[i + 1]; p++) {
      const float v = a.vals[p];
      const float* b = &a.B[(size_t)a.cols[p] * N];
      for (int j = 0; j < N; j++) c[j] += v * b[j];
    }
  }
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - s).count();
}

static long hugeKb() {
  FILE* f = std::fopen("/proc/self/smaps_rollup", "r");
  char line[256];
  long kb = -1;
  while (f && std::fgets(line, sizeof line, f)) if (std::sscanf(line, "AnonHugePages: %ld kB", &kb) == 1) break;
  if (f) std::fclose(f);
  return kb;
}

static double median(std::vector<double> t) {
  std::sort(t.begin(), t.end());
  size_t h = t.size() / 2;
  return t.size() % 2 ? t[h] : (t[h - 1] + t[h]) / 2;
}

int main(int argc, char** argv) {
  if (argc < 7) { std::fprintf(stderr, "usage: spmm-pages DIR M K N NNZ ROUNDS\n"); return 2; }
  std::string dir = argv[1];
  int M = std::atoi(argv[2]), K = std::atoi(argv[3]), N = std::atoi(argv[4]), NNZ = std::atoi(argv[5]), R = std::atoi(argv[6]);
  Csr small = setup(dir, M, K, N, NNZ, false), huge = setup(dir, M, K, N, NNZ, true);
  once(small, M, N), once(huge, M, N);  // warm-up
  std::vector<double> ts, th, ratio;
  for (int r = 0; r < R; r++) {
    double a = once(small, M, N), b = once(huge, M, N);
    ts.push_back(a), th.push_back(b), ratio.push_back(b / a);
  }
  std::printf("{\"small_ms\": %.6f, \"huge_ms\": %.6f, \"ratio\": %.4f, \"huge_kb\": %ld}\n", median(ts), median(th), median(ratio), hugeKb());
}

// The near-hardware reference: a plain CSR x dense loop, built with g++ -O3 -march=native at bench time.
// Usage: spmm DIR M K N NNZ REPEATS [MIN_MS] -> one untimed warm-up call, then at least REPEATS timed calls and at
// least MIN_MS of them; prints the median, min and max milliseconds of the multiply alone (zeroing C included, as
// every library allocates or clears its output) and the sum of |C|, as JSON. Building the row pointers is not timed.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

template <class T> std::vector<T> load(const std::string& path, size_t n) {
  std::vector<T> v(n);
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f || std::fread(v.data(), sizeof(T), n, f) != n) { std::perror(path.c_str()); std::exit(1); }
  std::fclose(f);
  return v;
}

int main(int argc, char** argv) {
  if (argc < 7) { std::fprintf(stderr, "usage: spmm DIR M K N NNZ REPEATS [MIN_MS]\n"); return 2; }
  std::string dir = argv[1];
  int M = std::atoi(argv[2]), K = std::atoi(argv[3]), N = std::atoi(argv[4]), NNZ = std::atoi(argv[5]), R = std::atoi(argv[6]);
  double minMs = argc > 7 ? std::atof(argv[7]) : 0;
  auto rows = load<int>(dir + "/rows.bin", NNZ), cols = load<int>(dir + "/cols.bin", NNZ);
  auto vals = load<float>(dir + "/vals.bin", NNZ), B = load<float>(dir + "/b.bin", (size_t)K * N);
  std::vector<int> ptr(M + 1, 0);
  for (int p = 0; p < NNZ; p++) ptr[rows[p] + 1]++;
  for (int i = 0; i < M; i++) ptr[i + 1] += ptr[i];
  std::vector<float> C((size_t)M * N);
  std::vector<double> t;
  double total = 0;
  for (int r = -1; r < R || total < minMs; r++) {
    auto s = std::chrono::steady_clock::now();
    std::fill(C.begin(), C.end(), 0.f);
    for (int i = 0; i < M; i++) {
      float* c = &C[(size_t)i * N];
      for (int p = ptr[i]; p < ptr[i + 1]; p++) {
        const float v = vals[p];
        const float* b = &B[(size_t)cols[p] * N];
        for (int j = 0; j < N; j++) c[j] += v * b[j];
      }
    }
    double d = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - s).count();
    if (r >= 0) t.push_back(d), total += d;  // r = -1 is the warm-up
    if (t.size() >= 1000000) break;
  }
  double check = 0;
  for (float x : C) check += x < 0 ? -x : x;
  std::sort(t.begin(), t.end());
  size_t h = t.size() / 2;
  double median = t.size() % 2 ? t[h] : (t[h - 1] + t[h]) / 2;
  std::printf("{\"median_ms\": %.6f, \"min_ms\": %.6f, \"max_ms\": %.6f, \"samples\": %zu, \"checksum\": %.9g}\n", median, t[0], t.back(), t.size(), check);
}

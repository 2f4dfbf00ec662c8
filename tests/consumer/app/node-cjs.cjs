// CommonJS: require() of the ES module package (Node 20.19 and later).
const { SparseTensor, createRuntime } = require('@sparse/runtime');

(async () => {
  const report = {};
  for (const backend of ['js', 'wasm']) {
    const rt = await createRuntime({ backend });
    // Indices given flat, row-major: (0,0), (1,2), (2,1).
    const st = new SparseTensor(new Float64Array([0, 0, 1, 2, 2, 1]), [1, 2, 3], [3, 3], 'float32');
    report[backend] = { reduceSum: rt.sparse.reduceSum(st, { axis: 1 }).toArray() };
  }
  console.log(JSON.stringify(report));
})();

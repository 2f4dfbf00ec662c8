// CommonJS: require() of the ES module package (Node 20.19 and later).
const { SparseTensor, createRuntime, tensor } = require('@sparse/runtime');

(async () => {
  const report = {};
  for (const backend of ['js', 'wasm']) {
    const rt = await createRuntime({ backend });
    const st = new SparseTensor(
      [
        [0, 0],
        [1, 2],
        [2, 1],
      ],
      [1, 2, 3],
      [3, 3],
      'float32',
    );
    report[backend] = {
      matmul: rt.sparse
        .tensorDenseMatmul(
          st,
          tensor(
            [
              [1, 2],
              [3, 4],
              [5, 6],
            ],
            'float32',
          ),
        )
        .toArray(),
    };
  }
  console.log(JSON.stringify(report));
})();

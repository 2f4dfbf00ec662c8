import { buildTsFile } from './ts-file.js';
import { camelCase, pascalCase } from './naming.js';
import type { ArgSpec, ArgType, LoadedSpec, OutputSpec } from './spec-types.js';
import { gradientOps } from './gradient-specs.js';

// `tfjs/src/generated/ops.ts`: every op as a function of @sparse/tfjs, over `runOp`, typed from its spec. Names
// follow TF.js, which camelCases TensorFlow's op names whole (`tf.sparseToDense`, `tf.sparse.sparseReshape`): the op
// id camelCased, plus the spec's API aliases that read the same way (`sparseDenseMatmul`).

const ARG_TS: Record<ArgType, string> = {
  sparse: 'SparseArg',
  sparse_or_null: 'SparseArg | null',
  dense: 'DenseArg',
  scalar: 'ScalarArg',
  sparse_or_dense: 'SparseArg | DenseArg',
  sparse_list: 'readonly SparseArg[]',
  sparse_or_sparse_list: 'SparseArg | readonly SparseArg[]',
  sparse_or_dense_list: 'readonly (SparseArg | DenseArg)[]',
  int_or_int_list: 'number | readonly number[]',
  int: 'number',
  bool: 'boolean',
  int_list: 'readonly number[]',
  shape: 'ShapeArg',
  axes: 'AxesLike',
  string: 'string',
  dtype: 'DTypeName',
  csr: 'CsrLike',
};

/** The package's own exports, which no op may take as its name. */
const TAKEN = ['fromTf', 'toTf', 'sparseToTf', 'sparseFromTf', 'isTfTensor', 'isTfSparse', 'runOp'];

/** An op's function name in @sparse/tfjs, and its aliases. */
export function tfjsNamesOf(s: LoadedSpec): string[] {
  const name = camelCase(s.name);
  return [name, ...s.apiAliases.filter((a) => /^sparse[A-Z]/.test(a) && a !== name)];
}

function argTs(a: ArgSpec): string {
  return a.one_of ? a.one_of.map((v) => JSON.stringify(v)).join(' | ') : ARG_TS[a.type];
}

/** The rank a dense output always has, where its shape rule fixes it: TF.js then types it (`tf.Tensor2D`). */
function fixedRank(s: LoadedSpec, o: OutputSpec): number | undefined {
  const rankOf = (arg: string) => {
    const c = (s.checks ?? []).find((k) => k.rule === 'rank' && k.arg === arg) as
      { min?: number; max?: number } | undefined;
    return c && c.min !== undefined && c.min === c.max ? c.min : undefined;
  };
  const rule = o.shape as Record<string, unknown>;
  if ('dims' in rule) return (rule.dims as unknown[]).length;
  if ('like' in rule) return rankOf(rule.like as string);
  if ('matmul' in rule) return rankOf((rule.matmul as { a: string }).a);
  return undefined;
}

function outputTs(s: LoadedSpec, o: OutputSpec): string {
  switch (o.type) {
    case 'dense': {
      const r = fixedRank(s, o);
      return r !== undefined && r >= 1 && r <= 6 ? `tf.Tensor${r}D` : r === 0 ? 'tf.Scalar' : 'tf.Tensor';
    }
    case 'sparse':
      return 'TfSparseTensor';
    case 'sparse_list':
      return 'TfSparseTensor[]';
    case 'sparse_or_dense':
      return 'TfSparseTensor | tf.Tensor';
    case 'csr':
      return 'CsrMatrix';
  }
}

function optionsName(s: LoadedSpec): string {
  return s.args.some((a) => a.default !== undefined) ? `${pascalCase(camelCase(s.name))}Options` : 'RunOpOptions';
}

function doc(s: LoadedSpec, alias?: string): string {
  const lines = [
    alias ? `Alias of {@link ${alias}}: ${s.summary.trim()}` : s.summary.trim(),
    '',
    `The op \`${s.name}\` ([its reference](https://github.com/sparse-js/sparse/blob/main/docs/ops.md#${s.name})) inside TF.js computations, through {@link runOp}.`,
    '',
  ];
  for (const a of s.args.filter((x) => x.default === undefined))
    lines.push(`@param ${camelCase(a.name)} ${a.doc.trim()}`);
  const optional = s.args.filter((a) => a.default !== undefined).map((a) => camelCase(a.name));
  lines.push(`@param options ${[...optional, 'runtime'].join(', ')}`);
  lines.push(
    `@returns ${s.outputs.map((o) => (s.outputs.length > 1 ? `${camelCase(o.name)}: ` : '') + o.doc.trim()).join('; ')}`,
  );
  return lines.join('\n').replace(/\*\//g, '*\\/');
}

/** `tfjs/src/generated/ops.ts`: an options interface and a function per op (and alias), a result type where several. */
export function emitTfjsApi(specs: LoadedSpec[]): string {
  const seen = new Map<string, string>(TAKEN.map((n) => [n, 'a hand-written export of @sparse/tfjs']));
  for (const s of specs)
    for (const n of tfjsNamesOf(s)) {
      const other = seen.get(n);
      if (other) throw new Error(`@sparse/tfjs: ${s.name} and ${other} both take the name ${n}`);
      seen.set(n, s.name);
    }
  const types = new Set(
    specs
      .flatMap((s) => s.args.map((a) => ARG_TS[a.type]))
      .join(' | ')
      .match(/\w+/g),
  );
  return buildTsFile('ops.ts', (f) => {
    f.addImportDeclaration({ isTypeOnly: true, moduleSpecifier: '@tensorflow/tfjs-core', namespaceImport: 'tf' });
    f.addImportDeclaration({
      isTypeOnly: true,
      moduleSpecifier: '@sparse/runtime',
      namedImports: ['AxesLike', 'CsrLike', 'CsrMatrix', 'DTypeName'].filter((n) => types.has(n) || n === 'CsrMatrix'),
    });
    f.addImportDeclaration({
      isTypeOnly: true,
      moduleSpecifier: '../arg-types.js',
      namedImports: ['DenseArg', 'ScalarArg', 'ShapeArg', 'SparseArg'].filter((n) => types.has(n)),
    });
    f.addImportDeclaration({
      isTypeOnly: true,
      moduleSpecifier: '../conversions.js',
      namedImports: ['TfSparseTensor'],
    });
    f.addImportDeclaration({ isTypeOnly: true, moduleSpecifier: '../tf-op.js', namedImports: ['RunOpOptions'] });
    f.addImportDeclaration({ moduleSpecifier: '../call-op.js', namedImports: ['callOp'] });

    const internal = gradientOps(specs);
    // A gradient op is the runtime's, for vjp: exported, but not in the reference (typedoc's excludeInternal).
    const tag = (s: LoadedSpec, text: string) => (internal.has(s.name) ? `${text}\n\n@internal` : text);
    for (const s of specs) {
      const name = camelCase(s.name);
      // An op without optional arguments takes RunOpOptions itself.
      if (s.args.some((a) => a.default !== undefined))
        f.addInterface({
          name: optionsName(s),
          isExported: true,
          extends: ['RunOpOptions'],
          docs: [tag(s, `Options of {@link ${name}}: its optional arguments, and the runtime to run on.`)],
          properties: s.args
            .filter((a) => a.default !== undefined)
            .flatMap((a) => [
              {
                name: camelCase(a.name),
                hasQuestionToken: true,
                type:
                  (a.default === null || a.none_means_default) && a.type !== 'axes' && a.type !== 'sparse_or_null'
                    ? `${argTs(a)} | null`
                    : argTs(a),
                docs: [
                  `${a.doc.trim()}\n\nDefault: ${a.default === 'zero' ? 'the zero of the dtype' : JSON.stringify(a.default)}.`,
                ],
              },
              ...(a.aliases ?? []).map((alias) => ({
                name: camelCase(alias),
                hasQuestionToken: true,
                type: argTs(a),
                docs: [`@deprecated The old name of \`${camelCase(a.name)}\`.`],
              })),
            ]),
        });
      if (s.outputs.length > 1)
        f.addInterface({
          name: `${pascalCase(name)}Result`,
          isExported: true,
          docs: [tag(s, `The outputs of {@link ${name}}.`)],
          properties: s.outputs.map((o) => ({ name: camelCase(o.name), type: outputTs(s, o), docs: [o.doc.trim()] })),
        });
      const required = s.args.filter((a) => a.default === undefined);
      const optionNames = [
        ...s.args.filter((a) => a.default !== undefined).flatMap((a) => [a.name, ...(a.aliases ?? [])].map(camelCase)),
        'runtime',
      ];
      const argEntries = s.args.flatMap((a) =>
        a.default === undefined
          ? [`${a.name}: ${camelCase(a.name)}`]
          : [a.name, ...(a.aliases ?? [])].map((n) => `${n}: o.${camelCase(n)}`),
      );
      const ret = s.outputs.length === 1 ? outputTs(s, s.outputs[0]) : `${pascalCase(name)}Result`;
      const take =
        s.outputs.length === 1
          ? `out.${s.outputs[0].name} as ${ret}`
          : `{ ${s.outputs.map((o) => `${camelCase(o.name)}: out.${o.name} as ${outputTs(s, o)}`).join(', ')} }`;
      const usesO = s.args.some((a) => a.default !== undefined);
      for (const fn of tfjsNamesOf(s))
        f.addFunction({
          name: fn,
          isExported: true,
          docs: [tag(s, doc(s, fn === name ? undefined : name))],
          parameters: [
            ...required.map((a) => ({ name: camelCase(a.name), type: argTs(a) })),
            { name: 'options', type: optionsName(s), hasQuestionToken: true },
          ],
          returnType: ret,
          statements: [
            `const out = callOp('${fn}', arguments.length, ${required.length + 1}, options, [${optionNames
              .map((n) => `'${n}'`)
              .join(', ')}], '${s.name}', (${usesO ? `o: ${optionsName(s)}` : ''}) => ({ ${argEntries.join(', ')} }));`,
            `return ${take};`,
          ],
        });
    }
  });
}

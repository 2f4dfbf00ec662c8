import { type OptionalKind, type PropertySignatureStructure } from 'ts-morph';
import { buildTsFile } from './ts-file.js';
import { camelCase, pascalCase } from './naming.js';
import { callToTs, expectationText } from './render-example.js';
import type { ArgSpec, LoadedSpec, ArgType, OutputType } from './spec-types.js';
import { gradientOps } from './gradient-specs.js';

const ARG_TS: Record<ArgType, string> = {
  sparse: 'SparseLike',
  sparse_or_null: 'SparseLike | null',
  dense: 'TensorLike',
  scalar: 'ScalarLike',
  sparse_or_dense: 'SparseLike | TensorLike',
  sparse_list: 'readonly SparseLike[]',
  sparse_or_sparse_list: 'SparseLike | readonly SparseLike[]',
  sparse_or_dense_list: 'readonly (SparseLike | TensorLike)[]',
  int_or_int_list: 'number | readonly number[]',
  int: 'number',
  bool: 'boolean',
  int_list: 'readonly number[]',
  shape: 'ShapeLike',
  axes: 'AxesLike',
  string: 'string',
  dtype: 'DTypeName',
  csr: 'CsrLike',
};

/** An argument's TS type: a string argument that lists its values takes exactly those. */
function argTs(a: ArgSpec): string {
  return a.one_of ? a.one_of.map((v) => JSON.stringify(v)).join(' | ') : ARG_TS[a.type];
}

const OUTPUT_TS: Record<OutputType, string> = {
  sparse: 'SparseTensor',
  dense: 'Tensor',
  sparse_list: 'SparseTensor[]',
  sparse_or_dense: 'SparseTensor | Tensor',
  csr: 'CsrMatrix',
};

/** `runtime/src/generated/ops-api.ts`: the typed API, one method per op (and alias), bound to a runtime's `run`. */
export function emitOpsApi(specs: LoadedSpec[]): string {
  return buildTsFile('ops-api.ts', (f) => {
    f.addImportDeclaration({
      isTypeOnly: true,
      moduleSpecifier: '../sparse-tensor.js',
      namedImports: ['SparseTensor'],
    });
    f.addImportDeclaration({ isTypeOnly: true, moduleSpecifier: '../tensor.js', namedImports: ['Tensor'] });
    f.addImportDeclaration({ isTypeOnly: true, moduleSpecifier: '../csr-matrix.js', namedImports: ['CsrMatrix'] });
    f.addImportDeclaration({
      isTypeOnly: true,
      moduleSpecifier: '../arg-types.js',
      namedImports: [
        'AxesLike',
        'CsrLike',
        // Only where an op takes a dtype argument: an unused import does not compile.
        ...(specs.some((s) => s.args.some((a) => a.type === 'dtype')) ? ['DTypeName'] : []),
        'RunOp',
        'RunOpAsync',
        'ScalarLike',
        'ShapeLike',
        'SparseLike',
        'TensorLike',
      ],
    });

    const internal = gradientOps(specs);
    // A gradient op is the runtime's, for vjp: in the API, but not in its reference (typedoc's excludeInternal).
    const tag = (s: LoadedSpec, doc: string) => (internal.has(s.name) ? `${doc}\n\n@internal` : doc);
    for (const s of specs) {
      const optional = s.args.filter((a) => a.default !== undefined);
      if (optional.length) {
        f.addInterface({
          name: optionsName(s),
          isExported: true,
          docs: [tag(s, `Optional arguments of {@link SparseOps.${s.apiName}}.`)],
          properties: optional.flatMap((a) => optionProps(a)),
        });
      }
      if (s.outputs.length > 1) {
        f.addInterface({
          name: `${pascalCase(s.apiName)}Result`,
          isExported: true,
          docs: [tag(s, `The outputs of {@link SparseOps.${s.apiName}}.`)],
          properties: s.outputs.map((o) => ({
            name: camelCase(o.name),
            type: OUTPUT_TS[o.type],
            docs: [o.doc.trim()],
          })),
        });
      }
    }

    f.addInterface({
      name: 'SparseOps',
      isExported: true,
      docs: [
        'Every op of sparse, as a typed function. Required arguments are positional; optional ones go in the last, options, argument.',
      ],
      methods: specs.flatMap((s) => {
        const params = paramsOf(s);
        const ret = returnType(s);
        return [
          { name: s.apiName, parameters: params, returnType: ret, docs: [tag(s, jsDoc(s))] },
          ...s.apiAliases.map((alias) => ({
            name: alias,
            parameters: params,
            returnType: ret,
            docs: [tag(s, `Alias of {@link SparseOps.${s.apiName}}: ${s.summary}`)],
          })),
        ];
      }),
    });

    f.addImportDeclaration({
      moduleSpecifier: '../op-options.js',
      namedImports: ['readOptions', 'refuseExtraArguments'],
    });

    f.addTypeAlias({
      name: 'AsyncSparseOps',
      isExported: true,
      docs: [
        'Every op of sparse, as a typed function that returns a promise of its result: for a backend that reads its results back asynchronously (webgpu), and the same on every other.',
      ],
      type: '{ [K in keyof SparseOps]: (...args: Parameters<SparseOps[K]>) => Promise<ReturnType<SparseOps[K]>> }',
    });

    f.addFunction({
      name: 'bindOps',
      isExported: true,
      docs: [
        "The typed API over one runtime: each method checks its options object (an unknown key is a TypeError, never ignored) and calls `run` with the spec's argument names.",
      ],
      parameters: [{ name: 'run', type: 'RunOp' }],
      returnType: 'SparseOps',
      statements: (w) =>
        w.writeLine('return bindWith(run, (out, take) => take(out as Record<string, unknown>)) as SparseOps;'),
    });

    f.addFunction({
      name: 'bindAsyncOps',
      isExported: true,
      docs: [
        'The typed API over one runtime, each method returning a promise (`AsyncSparseOps`), over an asynchronous `run`.',
      ],
      parameters: [{ name: 'run', type: 'RunOpAsync' }],
      returnType: 'AsyncSparseOps',
      statements: (w) =>
        w.writeLine(
          'return bindWith(run, (out, take) => (out as ReturnType<RunOpAsync>).then(take)) as unknown as AsyncSparseOps;',
        ),
    });

    f.addFunction({
      name: 'bindWith',
      docs: [
        "The methods of both APIs: each checks its options object (an unknown key is a TypeError, never ignored), calls `run` with the spec's argument names, and takes its result from `run`'s outputs through `then` (at once, or when they resolve).",
      ],
      parameters: [
        { name: 'run', type: '(opId: string, args: Record<string, unknown>) => unknown' },
        { name: 'then', type: '(out: unknown, take: (outputs: Record<string, unknown>) => unknown) => unknown' },
      ],
      returnType: 'unknown',
      statements: (w) => {
        // Typed as SparseOps, the parameters of each method are checked; `then` gives what the caller's API returns.
        w.writeLine('const ops: { [K in keyof SparseOps]: (...args: Parameters<SparseOps[K]>) => never } = {');
        for (const s of specs) {
          const params = paramsOf(s).map((p) => p.name);
          const optionNames = s.args
            .filter((a) => a.default !== undefined)
            .flatMap((a) => [a.name, ...(a.aliases ?? [])].map(camelCase));
          const argEntries = s.args.flatMap((a) =>
            a.default === undefined
              ? [`${a.name}: ${camelCase(a.name)}`]
              : [a.name, ...(a.aliases ?? [])].map((n) => `${n}: o.${camelCase(n)}`),
          );
          const call = `run('${s.name}', { ${argEntries.join(', ')} })`;
          const check = optionNames.length
            ? `const o = readOptions('${s.apiName}', options, [${optionNames.map((n) => `'${n}'`).join(', ')}], extra);`
            : `refuseExtraArguments('${s.apiName}', ${params.length}, extra);`;
          const take =
            s.outputs.length === 1
              ? `(out) => out.${s.outputs[0].name} as ${OUTPUT_TS[s.outputs[0].type]}`
              : `(out) => ({ ${s.outputs.map((o) => `${camelCase(o.name)}: out.${o.name} as ${OUTPUT_TS[o.type]}`).join(', ')} })`;
          const result = `return then(${call}, ${take}) as never;`;
          w.writeLine(`  ${s.apiName}: (${[...params, '...extra'].join(', ')}) => { ${check} ${result} },`);
        }
        for (const s of specs)
          for (const alias of s.apiAliases) w.writeLine(`  ${alias}: (...args) => ops.${s.apiName}(...args),`);
        w.writeLine('};');
        w.writeLine('return ops;');
      },
    });
  });
}

function optionsName(s: LoadedSpec): string {
  return `${pascalCase(s.apiName)}Options`;
}

function optionProps(a: ArgSpec): OptionalKind<PropertySignatureStructure>[] {
  const def = a.default === 'zero' ? 'the zero of the dtype' : JSON.stringify(a.default);
  return [
    {
      name: camelCase(a.name),
      hasQuestionToken: true,
      // AxesLike and SparseLike | null take null already.
      type:
        (a.default === null || a.none_means_default) && a.type !== 'axes' && a.type !== 'sparse_or_null'
          ? `${argTs(a)} | null`
          : argTs(a),
      docs: [`${a.doc.trim()}\n\nDefault: ${def}.`],
    },
    ...(a.aliases ?? []).map((alias) => ({
      name: camelCase(alias),
      hasQuestionToken: true,
      type: argTs(a),
      docs: [`@deprecated The old name of \`${camelCase(a.name)}\`.`],
    })),
  ];
}

function paramsOf(s: LoadedSpec) {
  const params = s.args
    .filter((a) => a.default === undefined)
    .map((a) => ({ name: camelCase(a.name), type: argTs(a) }));
  if (s.args.some((a) => a.default !== undefined))
    params.push({ name: 'options', type: optionsName(s), hasQuestionToken: true } as never);
  return params as { name: string; type: string; hasQuestionToken?: boolean }[];
}

function returnType(s: LoadedSpec): string {
  return s.outputs.length === 1 ? OUTPUT_TS[s.outputs[0].type] : `${pascalCase(s.apiName)}Result`;
}

function jsDoc(s: LoadedSpec): string {
  const lines = [s.summary.trim(), '', s.doc.trim(), ''];
  for (const a of s.args.filter((x) => x.default === undefined))
    lines.push(`@param ${camelCase(a.name)} ${a.doc.trim()}`);
  if (s.args.some((a) => a.default !== undefined))
    lines.push(
      `@param options ${s.args
        .filter((a) => a.default !== undefined)
        .map((a) => camelCase(a.name))
        .join(', ')}`,
    );
  lines.push(
    `@returns ${s.outputs.map((o) => (s.outputs.length > 1 ? `${camelCase(o.name)}: ` : '') + o.doc.trim()).join('; ')}`,
  );
  const ex = s.examples.find((e) => e.expect) ?? s.examples[0];
  lines.push(
    '@example',
    '```ts',
    callToTs(s, ex),
    ...expectationText(ex)
      .split('\n')
      .map((l) => `// → ${l}`),
    '```',
  );
  return lines.join('\n').replace(/\*\//g, '*\\/');
}

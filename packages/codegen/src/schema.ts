import {
  ARG_TYPES,
  DTYPE_NAMES,
  KERNEL_FAMILIES,
  OUTPUT_TYPES,
  type ArgSpec,
  type KernelSpec,
  type OpSpec,
  type OutputSpec,
  type ShapeRule,
} from './spec-types.js';
import { BACKEND_NAMES } from './backend-targets.js';
import { WIDE_DIMS } from './spec-format.js';
import { CHECK_RULES, type Field } from './check-rules.js';
import { shapeRuleSchema } from './shape-rules.js';

const identifier = { type: 'string', pattern: '^[a-z][a-z0-9_]*$' };

const camel = { type: 'string', pattern: '^[a-z][A-Za-z0-9]*$' };
const dtypeVar = { type: 'string', pattern: '^[A-Z][A-Za-z0-9]*$|^(float32|float64|int32|int64|bool|string)$' };
const text = { type: 'string', minLength: 1 };
// YAML reads `init: 0` as a number; an expression may be one.
const expression = { type: ['string', 'number'], minLength: 1 };

const FIELD_SCHEMAS: Record<Field['kind'], object> = {
  arg: identifier,
  arg_pair: { type: 'array', items: identifier, minItems: 2, maxItems: 2 },
  integer: { type: 'integer', minimum: 0 },
  identifier,
  text,
};

/** A check's schema, from its declaration: its fields, which of them are required. */
function checkSchema(rule: string, fields: Record<string, Field & { required: boolean }>) {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['rule', ...Object.keys(fields).filter((f) => fields[f].required)],
    properties: {
      rule: { const: rule },
      ...Object.fromEntries(Object.entries(fields).map(([f, d]) => [f, FIELD_SCHEMAS[d.kind]])),
    },
  };
}

/** The JSON Schema every spec must pass before any other check. */
export const specSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'summary', 'doc', 'dtypes', 'args', 'outputs', 'kernel', 'examples'],
  properties: {
    name: identifier,
    summary: text,
    doc: text,
    api: {
      type: 'object',
      additionalProperties: false,
      properties: { name: camel, aliases: { type: 'array', items: camel, uniqueItems: true } },
    },
    dtypes: {
      type: 'object',
      propertyNames: { pattern: '^[A-Z][A-Za-z0-9]*$' },
      additionalProperties: {
        type: 'array',
        minItems: 1,
        uniqueItems: true,
        items: { enum: [...DTYPE_NAMES] },
      },
    },
    dtype_defaults: {
      type: 'object',
      propertyNames: { pattern: '^[A-Z][A-Za-z0-9]*$' },
      additionalProperties: { enum: [...DTYPE_NAMES] },
    },
    dtype_fallbacks: {
      type: 'object',
      propertyNames: { pattern: '^[A-Z][A-Za-z0-9]*$' },
      additionalProperties: { type: 'string', pattern: '^[A-Z][A-Za-z0-9]*$' },
    },
    args: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name', 'type', 'doc'],
        properties: {
          name: identifier,
          type: { enum: Object.keys(ARG_TYPES) },
          dtype: dtypeVar,
          default: {},
          aliases: { type: 'array', items: identifier, uniqueItems: true },
          bounds: { enum: ['all', 'except_last'] },
          one_of: { type: 'array', items: text, minItems: 1, uniqueItems: true },
          none_means_default: { const: true },
          cast_to: dtypeVar,
          doc: text,
        },
      },
    },
    outputs: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name', 'type', 'dtype', 'shape', 'doc'],
        properties: {
          name: identifier,
          type: { enum: [...OUTPUT_TYPES] },
          dtype: dtypeVar,
          shape: shapeRuleSchema(identifier),
          order: {
            oneOf: [
              { const: 'canonical' },
              { type: 'object', additionalProperties: false, required: ['like'], properties: { like: identifier } },
            ],
          },
          entries: {
            type: 'array',
            minItems: 1,
            items: {
              type: 'object',
              minProperties: 1,
              maxProperties: 1,
              additionalProperties: false,
              properties: {
                nnz: identifier,
                size: identifier,
                dim: {
                  type: 'array',
                  minItems: 2,
                  maxItems: 2,
                  items: [identifier, { type: 'integer', minimum: 0 }],
                },
                min: { type: 'array', minItems: 1, items: identifier },
                products: {
                  type: 'object',
                  additionalProperties: false,
                  required: ['a', 'b', 'transpose_a', 'transpose_b'],
                  properties: {
                    a: identifier,
                    b: identifier,
                    transpose_a: { type: 'array', items: identifier, uniqueItems: true },
                    transpose_b: { type: 'array', items: identifier, uniqueItems: true },
                  },
                },
                cross: identifier,
              },
            },
          },
          doc: text,
        },
      },
    },
    checks: {
      type: 'array',
      items: {
        type: 'object',
        required: ['rule'],
        discriminator: { propertyName: 'rule' },
        oneOf: Object.entries(CHECK_RULES).map(([rule, d]) =>
          checkSchema(rule, d.fields as Record<string, Field & { required: boolean }>),
        ),
      },
    },
    kernel: {
      type: 'object',
      additionalProperties: false,
      required: ['family'],
      properties: {
        family: { enum: [...KERNEL_FAMILIES] },
        expr: expression,
        join: { enum: ['union', 'intersection'] },
        only_a: expression,
        only_b: expression,
        keep: expression,
        init: expression,
        combine: expression,
        finalize: expression,
        implicit_zeros: { enum: ['ignore', 'include'] },
        workspace: { type: 'integer', minimum: 0 },
        scratch: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['bytes'],
            oneOf: ['nnz', 'size', 'dims', 'min'].map((k) => ({ required: [k] })),
            properties: {
              bytes: { type: 'integer', minimum: 1 },
              nnz: identifier,
              size: identifier,
              dims: {
                type: 'array',
                minItems: 2,
                maxItems: 2,
                items: [identifier, { type: 'array', minItems: 1, items: { type: 'integer' } }],
              },
              min: { type: 'array', minItems: 1, items: identifier },
              when: { type: 'array', minItems: 1, items: identifier, uniqueItems: true },
              unless: { type: 'array', minItems: 1, items: identifier, uniqueItems: true },
            },
          },
        },
        dispatch: {
          type: 'object',
          minProperties: 1,
          propertyNames: { enum: BACKEND_NAMES },
          additionalProperties: { const: 'js' },
        },
        wide_dims: { enum: Object.keys(WIDE_DIMS) },
        wide_axis: { type: 'string' },
      },
    },
    gradient: {
      type: 'object',
      additionalProperties: false,
      minProperties: 1,
      properties: {
        op: identifier,
        args: {
          type: 'object',
          propertyNames: identifier,
          additionalProperties: {
            oneOf: [
              identifier,
              { type: 'object', additionalProperties: false, required: ['not'], properties: { not: identifier } },
              {
                type: 'object',
                additionalProperties: false,
                required: ['dim'],
                properties: {
                  dim: {
                    type: 'array',
                    minItems: 2,
                    maxItems: 2,
                    items: [identifier, { type: 'integer', minimum: 0 }],
                  },
                },
              },
            ],
          },
        },
        outputs: { type: 'object', propertyNames: identifier, minProperties: 1, additionalProperties: identifier },
        examples: { type: 'array', minItems: 1, items: { type: 'object' } },
      },
    },
    tensorflow: {
      type: 'object',
      additionalProperties: false,
      required: ['op'],
      properties: { op: text, gradient: text },
    },
    not_differentiable: text,
    // What a case holds is @sparse/case-format's to check (load-specs.ts).
    examples: { type: 'array', minItems: 1, items: { type: 'object' } },
  },
} as const;

// The schema and the spec types (spec-types.ts) describe the same fields: the compiler holds them together, so a
// field added to one and not the other does not compile.
type UnionToKeys<U> = { [K in U extends unknown ? keyof U : never]: unknown };
type SameKeys<A, B> = [Exclude<keyof A, keyof B> | Exclude<keyof B, keyof A>] extends [never] ? true : never;
type Props = typeof specSchema.properties;
export const schemaMatchesTypes: [
  SameKeys<Props, OpSpec>,
  SameKeys<Props['args']['items']['properties'], ArgSpec>,
  SameKeys<Props['outputs']['items']['properties'], OutputSpec>,
  SameKeys<Props['outputs']['items']['properties']['shape']['properties'], UnionToKeys<ShapeRule>>,
  SameKeys<Props['kernel']['properties'], KernelSpec>,
  SameKeys<Props['api']['properties'], NonNullable<OpSpec['api']>>,
  SameKeys<Props['gradient']['properties'], NonNullable<OpSpec['gradient']>>,
  SameKeys<Props['tensorflow']['properties'], NonNullable<OpSpec['tensorflow']>>,
] = [true, true, true, true, true, true, true, true];

import fc from 'fast-check';

/**
 * fast-check arbitraries from the OpenAPI document's JSON Schemas: values that mostly fit (so requests
 * reach the services), mixed with values chosen to break things (nesting past the limits, NUL, lone
 * surrogates, huge numbers, long strings, wrong types, unknown keys).
 */
type Schema = Record<string, unknown>;
type Doc = { components: { schemas: Record<string, Schema> } };

const deep = (levels: number): unknown => {
  let v: unknown = [];
  for (let i = 0; i < levels; i++) v = [v];
  return v;
};

export const hostileStrings = ['', '\u0000', 'a\u0000b', '\ud800', 'x\udfffy', 'x'.repeat(100_000), '%00', '../../etc/passwd', "'; drop table member; --", '{"a":1}', '💥'.repeat(1000), ' ', '9'.repeat(30)];
export const hostileValues: unknown[] = [
  ...hostileStrings,
  null,
  true,
  0,
  -1,
  2147483648,
  Number.MAX_SAFE_INTEGER,
  1e308,
  -1e308,
  0.5,
  [],
  {},
  { unknownField: 1 },
  deep(70),
  deep(2000),
  { a: deep(500) },
  Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`k${i}`, i])),
];

const hostile = fc.constantFrom(...hostileValues);

/** URLs the server would call: never names that need DNS, so the test stays on this machine. */
const urls = fc.constantFrom('http://127.0.0.1:9/hook', 'http://169.254.169.254/latest', 'http://10.0.0.1/', 'http://[::7f00:2]/', '//endpoint/x', 'ftp://127.0.0.1/', 'https://93.184.215.14/h', 'not a url');

function stringFor(s: Schema): fc.Arbitrary<string> {
  if (s.format === 'date-time') return fc.constantFrom('2026-01-31T09:30:00Z', '2026-13-40T99:99:99Z', '1970-01-01T00:00:00.000+02:00', 'yesterday');
  if (s.format === 'email') return fc.constantFrom('a@example.org', 'not-an-email', 'x@y');
  if (s.format === 'uri') return urls;
  if (typeof s.pattern === 'string') {
    try {
      return fc.stringMatching(new RegExp(s.pattern), { maxLength: 70 } as never).filter((x) => x.length <= 64);
    } catch {
      /* fall through */
    }
  }
  return fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom('2026-05-01', 'true', '42', 'scheduled', 'date', 'admin', 'user'));
}

/** An arbitrary for a schema: the fitting value most of the time, a hostile one otherwise. */
export function arbitraryFor(schema: Schema | undefined, doc: Doc, depth = 0): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 6, arbitrary: fitting(schema ?? {}, doc, depth) }, { weight: 1, arbitrary: hostile });
}

function fitting(schema: Schema, doc: Doc, depth: number): fc.Arbitrary<unknown> {
  if (depth > 6) return fc.constant(null);
  if (typeof schema.$ref === 'string') return fitting(doc.components.schemas[schema.$ref.split('/').at(-1)!] ?? {}, doc, depth);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  if ('const' in schema) return fc.constant(schema.const);
  const variants = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (variants) return fc.oneof(...variants.map((v) => fitting(v, doc, depth + 1)));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return stringFor(schema);
    case 'integer':
      return fc.integer({ min: typeof schema.minimum === 'number' ? Math.max(schema.minimum, -1000) : -5, max: typeof schema.maximum === 'number' ? Math.min(schema.maximum, 100_000) : 100_000 });
    case 'number':
      return fc.double({ min: -1e6, max: 1e6, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(arbitraryFor(schema.items as Schema, doc, depth + 1), { maxLength: 3 });
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      const required = new Set((schema.required ?? []) as string[]);
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [name, s] of Object.entries(properties)) record[name] = arbitraryFor(s, doc, depth + 1);
      const known = fc.record(record, { requiredKeys: [...required].filter((k) => k in record) });
      if (schema.additionalProperties && typeof schema.additionalProperties === 'object') {
        return fc.dictionary(fc.string({ maxLength: 10 }), arbitraryFor(schema.additionalProperties as Schema, doc, depth + 1), { maxKeys: 3 });
      }
      return Object.keys(record).length === 0 ? fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }) : known;
    }
    default:
      return fc.jsonValue({ maxDepth: 3 });
  }
}

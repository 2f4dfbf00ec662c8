import { readFileSync } from 'node:fs';
import Handlebars from 'handlebars';

const hb = Handlebars.create();
hb.registerHelper('eq', (a: unknown, b: unknown) => a === b);
hb.registerHelper('json', (a: unknown) => JSON.stringify(a));

/** A Handlebars template of generated code: no HTML escaping, and an unknown name is an error, not ''. */
export function compileTemplate(path: string): Handlebars.TemplateDelegate {
  return hb.compile(readFileSync(path, 'utf8'), { noEscape: true, strict: true });
}

import { configDocs, envSchema } from './index';

type Field = { _zod: { def: { type: string; defaultValue?: unknown } } };

/** A variable's default as the schema holds it: – for none. */
function schemaDefault(name: string): string {
  const field = (envSchema.shape as Record<string, Field>)[name];
  if (!field) throw new Error(`${name} is documented but not in the configuration schema`);
  const def = field._zod.def;
  return def.type === 'default' ? `\`${String(def.defaultValue)}\`` : '–';
}

/** The configuration table of api/README.md: its rows from the slices' docs, the defaults from the schema. */
export function configTable(): string {
  const rows = configDocs.map((d) => {
    const names = d.vars.map((v) => `\`${v}\``).join(' / ');
    const defaults = d.default ?? d.vars.map(schemaDefault).join(' / ');
    return `| ${names} | ${defaults} | ${d.meaning} |`;
  });
  return ['| Variable | Default | Meaning |', '|---|---|---|', ...rows].join('\n');
}

/** Helpers to build the console's message catalogues. */

type Messages = { [key: string]: string | Messages };

/**
 * Deep merge of message trees onto `base`; later sources win on the same leaf. Inputs are not modified.
 * The result has `base`'s type (e.g. react-admin's `TranslationMessages`): it has every key `base` has,
 * with a string wherever `base` has one as long as the sources do too (src/i18n/i18n.test.ts checks that
 * both catalogues hold every key of react-admin's, the same keys, and no empty text).
 */
export function mergeMessages<T extends object>(base: T, ...sources: object[]): T {
  return mergeTrees(base, ...sources) as T;
}

function mergeTrees(...sources: object[]): Messages {
  const out: Messages = {};
  for (const src of sources) {
    for (const [k, v] of Object.entries(src ?? {})) {
      const prev = out[k];
      out[k] =
        v && typeof v === 'object'
          ? mergeTrees(prev && typeof prev === 'object' ? prev : {}, v)
          : (v as string);
    }
  }
  return out;
}

/** Every leaf key of a message tree, dotted (`ra.action.delete`), with its text. */
export function flattenMessages(tree: object, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(tree)) {
    if (v && typeof v === 'object') Object.assign(out, flattenMessages(v, `${prefix}${k}.`));
    else out[`${prefix}${k}`] = String(v);
  }
  return out;
}

/**
 * Message contributions of other console parts, one module per language (so the Chinese halves stay out
 * of the entry chunk): `<part>/i18n.ts` exports `en`, `<part>/i18n.zh.ts` exports `zh`, with the same
 * keys. `en.ts` and `zh.ts` each glob their language's files (Vite's `import.meta.glob`, eager, named
 * import) and pass the result here; the parts today are the shell (`src/layout`), the blockchain and
 * registry screens (`src/resources/*`) and the generic screens (`src/schema-ui`).
 */
export function inFileOrder(modules: Record<string, object>): object[] {
  return Object.keys(modules)
    .sort()
    .map((file) => modules[file] ?? {});
}

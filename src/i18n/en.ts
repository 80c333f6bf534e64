/**
 * English catalogue: react-admin's English messages (ra-language-english), the console's `baas.*`
 * namespace, the resource and field labels generated from the schemas (`resources.*`), and the console
 * parts' contributions (`<part>/i18n.ts`).
 */
import englishMessages from 'ra-language-english';
import type { TranslationMessages } from 'ra-core';
import { generatedMessagesEn } from '../generated/messages.en';
import { baasEn } from './baas';
import { inFileOrder, mergeMessages } from './merge';

/** The English halves of the console parts' catalogues (src/i18n/merge.ts `inFileOrder`). */
const contributed = import.meta.glob<object>(
  ['../layout/i18n.ts', '../resources/*/i18n.ts', '../schema-ui/i18n.ts'],
  { eager: true, import: 'en' },
);

const en: TranslationMessages = mergeMessages(
  englishMessages,
  { baas: baasEn },
  { resources: generatedMessagesEn },
  ...inFileOrder(contributed),
);
export default en;

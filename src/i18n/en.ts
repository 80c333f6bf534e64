/**
 * English catalogue: react-admin's English messages (ra-language-english), the console's `baas.*`
 * namespace, the resource and field labels generated from the schemas (`resources.*`), and the shell's
 * and blockchain screens' contributions.
 */
import englishMessages from 'ra-language-english';
import type { TranslationMessages } from 'ra-core';
import { generatedMessagesEn } from '../generated/messages.en';
import { baasEn } from './baas';
import { contributedMessages, mergeMessages } from './merge';

const en: TranslationMessages = mergeMessages(
  englishMessages,
  { baas: baasEn },
  { resources: generatedMessagesEn },
  ...contributedMessages('en'),
);
export default en;

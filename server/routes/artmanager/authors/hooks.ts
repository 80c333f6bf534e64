/**
 * Authors' behaviour beyond the schema (registered in server/kernel/hooks.ts): `wxCreateTime` is the time
 * the mini-program code was set — now when a write sets a new non-empty `wxCode`, null when it clears it.
 */
import { nowText } from '../../../db/database';
import type { ResourceHooks } from '../../../kernel/repository';

export const authorHooks: ResourceHooks = {
  beforeWrite({ values, current }) {
    if (values.wxCode === undefined) {
      if (!current) values.wxCreateTime = null;
      return;
    }
    if (current && values.wxCode === current.wxCode) return;
    values.wxCreateTime = values.wxCode ? nowText() : null;
  },
};

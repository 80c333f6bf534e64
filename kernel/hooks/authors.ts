/**
 * Authors' behaviour beyond the schema (registered in kernel/hooks/index.ts): `wxCreateTime` is the time
 * the mini-program code was set — now when a write sets a new non-empty `wxCode`, null when it clears it.
 */
import { nowText } from '../../server/db/database';
import type { ResourceHooks } from '../server/repository';

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

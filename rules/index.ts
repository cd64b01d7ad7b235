// The registry of every Hotframe rule. The engine runs these unless told otherwise.
import type { RuleId, RuleModule } from './api';
import blockingSyncCall from './blocking-sync-call';
import connectionPerRequest from './connection-per-request';
import dateNowHotPath from './date-now-hot-path';
import mongooseCountByLoading from './mongoose-count-by-loading';
import mongooseMissingLean from './mongoose-missing-lean';
import serialHeavyMiddleware from './serial-heavy-middleware';
import spawnWithoutEnv from './spawn-without-env';

export const allRules: readonly RuleModule[] = [
  dateNowHotPath,
  spawnWithoutEnv,
  blockingSyncCall,
  mongooseMissingLean,
  mongooseCountByLoading,
  serialHeavyMiddleware,
  connectionPerRequest,
];

export const ruleIds: readonly RuleId[] = allRules.map((rule) => rule.meta.id);

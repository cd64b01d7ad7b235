// The registry of every Hotframe rule, and of the project facts they read across modules. The
// engine runs these unless told otherwise.
import type { ModuleSummarizer, RuleId, RuleModule } from './api';
import blockingSyncCall from './blocking-sync-call';
import connectionPerRequest from './connection-per-request';
import dateNowHotPath from './date-now-hot-path';
import { mongooseModelExportsOf } from './detectors/mongooseModelExports';
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

/**
 * What the project index keeps of each module for the rules analyzing other modules: one
 * collector per field of ModuleSummary, run on the module's top-level statements.
 */
export const summarizeModule: ModuleSummarizer = (module) => ({
  mongooseModelExports: mongooseModelExportsOf(module),
});

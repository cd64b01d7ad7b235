// One settings schema: package.json's `contributes.configuration` against the rules' meta and
// the two readers of settings (client/configValues.ts, server/lsp/settings.ts). Fails when a
// rule's id, default level or description drifts from package.json (fix: `npm run
// settings:rules`), when a setting in package.json is read by no reader or changes nothing, and
// when a reader reads a setting package.json does not declare. Also: the languages package.json
// activates on are those the client selects and the server analyzes (server/protocol/lsp.ts).
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { parseClientConfig } from '../../client/configValues';
import { allRules } from '../../rules/index';
import { DEFAULT_SETTINGS, parseSettings } from '../../server/lsp/settings';
import { SOURCE_LANGUAGE_IDS } from '../../server/protocol/lsp';
import { RULE_SETTING_PREFIX, ruleSettingEntries, ruleSettingEntry } from '../../scripts/ruleSettings';

interface SettingSchema {
  type: string;
  default?: unknown;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  items?: SettingSchema;
  properties?: Record<string, SettingSchema>;
  required?: string[];
  markdownDescription?: string;
  description?: string;
}

const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
  contributes: { configuration: { properties: Record<string, SettingSchema> } };
  capabilities: { untrustedWorkspaces: { restrictedConfigurations: string[] } };
};
const properties = manifest.contributes.configuration.properties;

/** A valid value of the schema other than its default. */
function otherValue(schema: SettingSchema): unknown {
  if (schema.enum) return schema.enum.find((value) => value !== schema.default);
  switch (schema.type) {
    case 'boolean':
      return schema.default !== true;
    case 'number':
      return Math.min(schema.maximum ?? Infinity, (schema.default as number) + 1);
    case 'array':
      return [otherValue(schema.items!)];
    case 'object':
      return Object.fromEntries(Object.keys(schema.properties ?? {}).map((key) => [key, `/${key}`]));
    default:
      return `${String(schema.default)}-other`;
  }
}

/** `{ 'a.b': 1 }` -> `{ a: { b: 1 } }`, as VS Code hands a section to the language server. */
function nested(flat: Record<string, unknown>): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(flat)) {
    const parts = key.split('.');
    let at = root;
    for (const part of parts.slice(0, -1)) at = (at[part] ??= {}) as Record<string, unknown>;
    at[parts.at(-1)!] = value;
  }
  return root;
}

/** What the two readers return for the `hotframe` section given by its flat keys (without `hotframe.`). */
function readBoth(flat: Record<string, unknown>): { client: unknown; server: unknown; clientKeys: Set<string>; serverKeys: Set<string> } {
  const clientKeys = new Set<string>();
  const client = parseClientConfig((key) => {
    clientKeys.add(key);
    return flat[key];
  });
  const serverKeys = new Set<string>();
  const section = nested(flat);
  const watched = new Proxy(section, {
    get(target, key) {
      if (typeof key === 'string') serverKeys.add(key);
      return target[key as string];
    },
  });
  const server = parseSettings(watched, (line) => assert.fail(`the server warned about a valid value: ${line}`));
  return { client, server, clientKeys, serverKeys };
}

describe('settings schema (package.json contributes.configuration)', () => {
  it('has one hotframe.rules.<id> entry per registered rule, generated from its meta', () => {
    const ruleKeys = Object.keys(properties).filter((key) => key.startsWith(RULE_SETTING_PREFIX));
    assert.deepEqual(ruleKeys, allRules.map((rule) => `${RULE_SETTING_PREFIX}${rule.meta.id}`), 'ids (run `npm run settings:rules`)');
    for (const rule of allRules) {
      const entry = properties[`${RULE_SETTING_PREFIX}${rule.meta.id}`]!;
      assert.equal(entry.default, rule.meta.defaultSeverity, `${rule.meta.id}: default level`);
      assert.ok(entry.markdownDescription?.includes(rule.meta.description), `${rule.meta.id}: description`);
      assert.ok(entry.markdownDescription?.includes(rule.meta.incident.summary), `${rule.meta.id}: incident`);
    }
    assert.deepEqual(Object.fromEntries(ruleKeys.map((key) => [key, properties[key]])), ruleSettingEntries(), 'run `npm run settings:rules` to write the entries from the rules');
  });

  it('generates a rule entry from the meta it is given (a changed meta changes the entry)', () => {
    const meta = allRules[0]!.meta;
    const changed = ruleSettingEntry({ ...meta, defaultSeverity: 'hint', description: 'Flags something else.' });
    assert.equal(changed.default, 'hint');
    assert.match(changed.markdownDescription, /^Severity of `[\w-]+` \(default `hint`\)\. Flags something else\. In a production incident, /);
    assert.deepEqual(changed.enum, ['off', 'hint', 'information', 'warning', 'error']);
    assert.notDeepEqual(changed, ruleSettingEntry(meta));
  });

  it('gives every setting a reader, and each one changes what its reader returns', () => {
    const unset = readBoth({});
    for (const [key, schema] of Object.entries(properties)) {
      const name = key.slice('hotframe.'.length);
      const value = otherValue(schema);
      assert.notEqual(value, undefined, `${key}: no value other than the default`);
      const set = readBoth({ [name]: value });
      const changed = JSON.stringify(set.client) !== JSON.stringify(unset.client) || JSON.stringify(set.server) !== JSON.stringify(unset.server);
      assert.ok(changed, `${key} = ${JSON.stringify(value)} changes neither the client's nor the server's settings: unused`);
    }
  });

  it('declares every setting a reader reads', () => {
    const { clientKeys, serverKeys } = readBoth({});
    const declared = Object.keys(properties).map((key) => key.slice('hotframe.'.length));
    for (const key of clientKeys) assert.ok(declared.includes(key), `the client reads hotframe.${key}, which package.json does not declare`);
    const topLevel = new Set(declared.map((key) => key.split('.')[0]));
    for (const key of serverKeys) assert.ok(topLevel.has(key), `the server reads hotframe.${key}, which package.json does not declare`);
    assert.deepEqual([...serverKeys].sort(), ['hotThresholdPercent', 'rules', 'stallThresholdMs']);
  });

  it('has the readers default to package.json defaults', () => {
    const { client, server } = readBoth({});
    assert.deepEqual(server, DEFAULT_SETTINGS);
    assert.equal(DEFAULT_SETTINGS.hotThresholdPercent, properties['hotframe.hotThresholdPercent']!.default);
    assert.deepEqual(client, {
      heatEnabled: properties['hotframe.heat.enabled']!.default,
      hotThresholdPercent: properties['hotframe.hotThresholdPercent']!.default,
      pathMappings: properties['hotframe.pathMappings']!.default,
      recordingsFolder: properties['hotframe.recordingsFolder']!.default,
    });
  });

  it('restricts only declared settings in untrusted workspaces', () => {
    for (const key of manifest.capabilities.untrustedWorkspaces.restrictedConfigurations) assert.ok(key in properties, key);
  });
});

describe('client settings values (client/configValues.ts)', () => {
  const parse = (values: Record<string, unknown>) => parseClientConfig((key) => values[key]);

  it('reads heat.enabled, the hot threshold and the path mappings', () => {
    assert.deepEqual(parse({ 'heat.enabled': false, hotThresholdPercent: 5, pathMappings: [{ from: '/usr/src/app', to: '/home/me/app' }], recordingsFolder: 'out/profiles' }), {
      heatEnabled: false,
      hotThresholdPercent: 5,
      pathMappings: [{ from: '/usr/src/app', to: '/home/me/app' }],
      recordingsFolder: 'out/profiles',
    });
  });

  it('replaces each bad value by its default', () => {
    assert.deepEqual(parse({ 'heat.enabled': 'yes', hotThresholdPercent: 'high', pathMappings: [{ from: '/a' }, { from: '/b', to: '/c' }, { from: '', to: '/d' }] }), {
      heatEnabled: true,
      hotThresholdPercent: 1,
      pathMappings: [{ from: '/b', to: '/c' }],
      recordingsFolder: 'profiles',
    });
    assert.equal(parse({ recordingsFolder: 42 }).recordingsFolder, 'profiles');
    assert.equal(parse({ hotThresholdPercent: 101 }).hotThresholdPercent, 1);
    assert.equal(parse({ hotThresholdPercent: -1 }).hotThresholdPercent, 1);
    assert.deepEqual(parse({ pathMappings: { from: '/a', to: '/b' } }).pathMappings, []);
  });
});

describe('the analyzed languages', () => {
  it('package.json activates on exactly the languages the client selects and the server analyzes', () => {
    const { activationEvents } = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { activationEvents: string[] };
    const languages = activationEvents.filter((event) => event.startsWith('onLanguage:')).map((event) => event.slice('onLanguage:'.length));
    assert.deepEqual([...languages].sort(), [...SOURCE_LANGUAGE_IDS].sort());
  });
});

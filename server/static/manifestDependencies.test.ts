// A project's declared dependencies (issue 22): the data library a module that imports none takes
// from its package.json, read by the project index from the nearest manifest above the file.
import assert from 'node:assert/strict';
import { MAX_MANIFEST_DEPENDENCIES, dependenciesOfManifest } from './manifestDependencies';
import { findingsOf, projectOf, removeProjects } from '../../test/unit/projectOnDisk';

after(removeProjects);

describe('dependenciesOfManifest (package.json, untrusted text)', () => {
  it('reads the runtime sections, never devDependencies', () => {
    const names = dependenciesOfManifest(JSON.stringify({
      dependencies: { mongoose: '^8', express: '4' }, peerDependencies: { '@nestjs/mongoose': '*' },
      optionalDependencies: { bufferutil: '*' }, devDependencies: { sequelize: '6' },
    }));
    assert.deepEqual([...names].sort(), ['@nestjs/mongoose', 'bufferutil', 'express', 'mongoose']);
  });

  it('is empty for text that is not a manifest, and ignores sections of the wrong shape', () => {
    for (const text of ['', 'not json', '[1,2]', 'null', '"mongoose"', JSON.stringify({ dependencies: ['mongoose'] }), JSON.stringify({ dependencies: 'mongoose' })]) {
      assert.equal(dependenciesOfManifest(text).size, 0, text);
    }
  });

  it(`stops at ${MAX_MANIFEST_DEPENDENCIES} names`, () => {
    const many = Object.fromEntries(Array.from({ length: MAX_MANIFEST_DEPENDENCIES + 50 }, (_, i) => [`p${i}`, '1']));
    assert.equal(dependenciesOfManifest(JSON.stringify({ dependencies: many })).size, MAX_MANIFEST_DEPENDENCIES);
  });
});

describe('a model handed to a module that imports no data library: the project\'s package.json decides', () => {
  // A validator given its model by the caller (formio's shape): nothing in the module says mongoose.
  const validator = (imports: string): string => `${imports}async function exists(submissionModel, query) {
  const result = await submissionModel.find(query);
  return result.length !== 0;
}
exports.exists = exists;
`;
  const manifest = (dependencies: Record<string, string>): string => JSON.stringify({ name: 'svc', dependencies });

  it('a project that declares mongoose (and the driver beside it): the count by loading is shown', () => {
    const dir = projectOf({ 'package.json': manifest({ mongoose: '8', mongodb: '6' }), 'src/validator.js': validator('') });
    assert.deepEqual(findingsOf(dir, ['src/validator.js'])['src/validator.js'], ['mongoose-count-by-loading:2:warning']);
  });

  it('a module that takes only BSON types from the driver (`const { ObjectId } = require(\'mongodb\')`) is still the project\'s', () => {
    const dir = projectOf({ 'package.json': manifest({ mongoose: '8' }), 'src/validator.js': validator("const { ObjectId } = require('mongodb');\n") });
    assert.deepEqual(findingsOf(dir, ['src/validator.js'])['src/validator.js'], ['mongoose-count-by-loading:3:warning']);
  });

  it('a module that takes the driver\'s client runs queries through it: not guessed', () => {
    const dir = projectOf({ 'package.json': manifest({ mongoose: '8' }), 'src/validator.js': validator("const { MongoClient } = require('mongodb');\n") });
    assert.deepEqual(findingsOf(dir, ['src/validator.js'])['src/validator.js'], []);
  });

  it('a project that declares another data library too (Sequelize), or mongoose only as a dev dependency: not guessed', () => {
    for (const text of [manifest({ mongoose: '8', sequelize: '6' }), JSON.stringify({ devDependencies: { mongoose: '8' } })]) {
      const dir = projectOf({ 'package.json': text, 'src/validator.js': validator('') });
      assert.deepEqual(findingsOf(dir, ['src/validator.js'])['src/validator.js'], [], text);
    }
  });
});

// The environment for a Node child a test records: without what the test runner's own process
// carries (tsx's loader in NODE_OPTIONS, Electron's ELECTRON_RUN_AS_NODE inside VS Code), which
// would change what the child runs and what its profile holds.
export function plainNodeEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.ELECTRON_RUN_AS_NODE;
  delete env.NODE_OPTIONS;
  return env;
}

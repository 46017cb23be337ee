/** API_THREAD: off by default; an embedded-mode setting, refused in aws mode and beside MULTI_NODE. */
import { describe, expect, it } from '@jest/globals';
import { EnvError, loadEnv } from '#shared/config/env.js';

const problemsOf = (source: Record<string, string>): string[] => {
  try {
    loadEnv(source);
    return [];
  } catch (error) {
    if (error instanceof EnvError) return error.problems;
    throw error;
  }
};

describe('API_THREAD', () => {
  it('is off unless asked for, and on with true or 1', () => {
    expect(loadEnv({}).API_THREAD).toBe(false);
    expect(loadEnv({ API_THREAD: 'true' }).API_THREAD).toBe(true);
    expect(loadEnv({ API_THREAD: '1' }).API_THREAD).toBe(true);
  });

  it('refuses a value that is not a flag', () => {
    expect(problemsOf({ API_THREAD: 'yes' })).toEqual([expect.stringMatching(/^API_THREAD: /)]);
  });

  it('is refused in aws mode, where the API runs on Lambda', () => {
    expect(
      problemsOf({
        API_THREAD: 'true',
        DEPLOYMENT_MODE: 'aws',
        COMMAND_QUEUE_URL: 'http://q.local/commands',
        HOST_RPC_TOKEN: 't'.repeat(32),
        S3_BUCKET: 'media',
      }),
    ).toEqual([expect.stringMatching(/^API_THREAD: needs DEPLOYMENT_MODE=embedded/)]);
  });

  it('is refused beside MULTI_NODE, where each node serves its API beside its host', () => {
    expect(problemsOf({ API_THREAD: 'true', MULTI_NODE: 'true', HOST_RPC_TOKEN: 't'.repeat(32) })).toEqual([
      expect.stringMatching(/^API_THREAD: not with MULTI_NODE/),
    ]);
  });
});

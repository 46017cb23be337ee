/**
 * Setup file of the jest project `api-thread` (run before each test file of that project only): startTestGateway
 * starts the embedded gateway with API_THREAD=true, the API in a worker thread of its own (test-gateway.ts reads
 * this), so the same files check the API across the thread boundary.
 */
import { jest } from '@jest/globals';

process.env.WAYGATE_API_THREAD = '1';
// A gateway's start here includes the API thread's own start (its module graph loaded through tsx in the worker),
// several seconds on a loaded CI machine, where jest's default 5 s once ran out in a setup hook.
jest.setTimeout(30_000);

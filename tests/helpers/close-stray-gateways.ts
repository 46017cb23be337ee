/**
 * Setup file of the jest projects that start test gateways (api, api-aws, api-thread, e2e, aws, browser): after each
 * test file, whatever gateway it left open, typically one whose start outlived a timed-out setup hook, is closed, so
 * its server, worker thread or serverless offline child cannot keep jest from exiting once the run is over.
 */
import { afterAll } from '@jest/globals';
import { closeStrayGateways } from './stray-gateways.js';

afterAll(closeStrayGateways, 120_000);

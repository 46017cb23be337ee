/**
 * Setup file of the jest project `api-offline` (after offline-api-setup.ts): its test gateways serve the functions
 * through serverless offline (serverless.yml's routes and packaged bundles, API Gateway's events), where api-aws runs
 * the same handlers in-process (offline-test-gateway.ts reads this).
 */
process.env.WAYGATE_TEST_FUNCTIONS = 'offline';

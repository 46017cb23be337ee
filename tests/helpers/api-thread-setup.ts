/**
 * Setup file of the jest project `api-thread` (run before each test file of that project only): startTestGateway
 * starts the embedded gateway with API_THREAD=true, the API in a worker thread of its own (test-gateway.ts reads
 * this), so the same files check the API across the thread boundary.
 */
process.env.WAYGATE_API_THREAD = '1';

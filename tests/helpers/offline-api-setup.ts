/**
 * Setup file of the jest projects `api-aws` and `api-offline` (run before each of their test files only, so the
 * project `api` keeps the embedded gateway in the same jest run): points startTestGateway at the aws mode, gives the
 * in-process host's AWS SDK clients the dummy credentials the functions use too (DynamoDB Local keeps one database
 * per access key, so both sides must present the same one), and allows for a gateway start that spawns serverless
 * offline (several seconds, more on a loaded machine).
 */
import { jest } from '@jest/globals';

process.env.WAYGATE_API_TARGET = 'offline';
process.env.AWS_ACCESS_KEY_ID = 'local';
process.env.AWS_SECRET_ACCESS_KEY = 'local';
process.env.AWS_SESSION_TOKEN = '';
process.env.AWS_REGION = 'us-east-1';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
jest.setTimeout(60_000);

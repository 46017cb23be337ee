/** Global teardown of the jest project `api-aws`: gives the shared emulators back (aws-emulators.mjs). */
export { teardown as default } from './aws-global-setup.mjs';

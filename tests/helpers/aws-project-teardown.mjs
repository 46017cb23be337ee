/** Global teardown of the jest project `aws`: gives the shared emulators back (aws-emulators.mjs). */
export { teardown as default } from './aws-project-setup.mjs';

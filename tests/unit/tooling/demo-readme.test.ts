/**
 * The README's demo section shows the very steps `npm run demo` prints for its default ports and folder
 * (scripts/demo-steps.mjs); tests/e2e/demo-steps.test.ts runs the printed block.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/** The part of scripts/demo-steps.mjs used here (plain JS without declarations). */
interface DemoStepsModule {
  DEFAULTS: { gatewayUrl: string; adminUrl: string; keyFile: string };
  demoSteps(where: DemoStepsModule['DEFAULTS']): string;
}

describe('README demo section', () => {
  it('shows the steps npm run demo prints for its defaults', async () => {
    const { DEFAULTS, demoSteps } = (await import(
      path.join(ROOT, 'scripts/demo-steps.mjs')
    )) as DemoStepsModule;
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    expect(readme).toContain(`\`\`\`bash\n${demoSteps(DEFAULTS)}\n\`\`\``);
  });
});

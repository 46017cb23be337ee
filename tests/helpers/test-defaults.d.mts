/** What every test gateway runs with unless a test overrides it (see test-defaults.mjs). */
export declare const TEST_DEFAULTS: Readonly<Record<string, string>>;

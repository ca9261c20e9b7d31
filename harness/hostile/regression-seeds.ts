// Fuzz seeds that once found a problem, kept so that a fix can be shown to hold on the very run that failed:
// `npm run fuzz -- --regressions` runs each with its own request count (the same requests, in the same
// order, as the seed and count make them). A seed's problem also has a test of its own that replays it.

export interface RegressionSeed {
  readonly seed: number;
  readonly requests: number;
  /** What the run found. */
  readonly found: string;
  /** What fixed it, and the test that replays it. */
  readonly fixed: string;
}

export const REGRESSION_SEEDS: readonly RegressionSeed[] = [
  {
    seed: 422447,
    requests: 100_000,
    found: 'a 429 in text/html to POST /v2?… (the password form’s route, POST /{key}) where every /v2 error is JSON',
    fixed:
      'issue 37: a key no link can have (v2, api, …) is no password attempt, so POST /v2 is the API’s JSON 404; over the ' +
      'password limits a script gets the JSON 429, a browser’s form the page (test/http/rate-limits.http.test.ts)',
  },
];

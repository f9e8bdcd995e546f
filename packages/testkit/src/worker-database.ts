/**
 * The database a jest worker's tests share (`<TEST_DATABASE_URL>_<worker>`): tests in one worker run one
 * after another, as they did on one database; tests in two workers never see each other's rows.
 * Imports nothing: jest loads it before every test file.
 */
export function workerDatabaseUrl(testDatabaseUrl: string, workerId: string): string {
  const url = new URL(testDatabaseUrl);
  url.pathname = `${url.pathname}_${workerId}`;
  return url.toString();
}

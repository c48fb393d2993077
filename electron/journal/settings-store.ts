import type Database from 'better-sqlite3';

/** The `settings` table: the lane's own key-value settings (the last batch close seen, among them). */
export class SettingsStore {
  private readonly stmt;

  constructor(db: Database.Database) {
    this.stmt = {
      getSetting: db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?'),
      setSetting: db.prepare(
        `INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
      ),
    };
  }

  getSetting(key: string): string | undefined {
    return this.stmt.getSetting.get(key)?.value;
  }

  setSetting(key: string, value: string, now: number): void {
    this.stmt.setSetting.run(key, value, now);
  }
}

/** The data dir's `manifest.json`: its schema version (migrations.ts). */

export interface Manifest {
  schemaVersion: number;
  createdAt: string;
}

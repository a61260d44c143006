import type { Collection } from './collection.js';
import type { UserRecord, UsersDoc } from './records.js';

/** The users collection with its in-memory indexes (rebuilt at load). */
export class UserTable {
  private readonly byId = new Map<number, UserRecord>();
  private readonly byEmail = new Map<string, UserRecord>();

  constructor(readonly collection: Collection<UsersDoc>) {
    for (const u of collection.data.users) this.index(u);
  }

  private index(u: UserRecord): void {
    this.byId.set(u.id, u);
    this.byEmail.set(u.email.toLowerCase(), u);
  }

  get(id: number): UserRecord | undefined {
    return this.byId.get(id);
  }

  byEmailAddress(email: string): UserRecord | undefined {
    return this.byEmail.get(email.toLowerCase());
  }

  all(): UserRecord[] {
    return this.collection.data.users;
  }

  get count(): number {
    return this.collection.data.users.length;
  }

  /** Adds a user in memory (assigning its id); the caller saves the collection. */
  add(fields: Omit<UserRecord, 'id'>): UserRecord {
    const doc = this.collection.data;
    const user: UserRecord = { id: doc.nextId++, ...fields };
    doc.users.push(user);
    this.index(user);
    return user;
  }

  /** Call after changing a user's email in memory. */
  reindexEmail(user: UserRecord, oldEmail: string): void {
    this.byEmail.delete(oldEmail.toLowerCase());
    this.byEmail.set(user.email.toLowerCase(), user);
  }
}

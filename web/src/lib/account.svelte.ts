/**
 * The signed-in player, if any, shared by every part of the page: loaded once from the
 * server (the session is an HttpOnly cookie the page cannot read), changed by signing in,
 * registering and signing out.
 */
import { api } from "./api";

export const account = $state<{ name: string | null; loaded: boolean }>({ name: null, loaded: false });

export async function loadAccount(): Promise<void> {
  try {
    account.name = (await api.account()).name;
  } catch {
    account.name = null;
  }
  account.loaded = true;
}

export async function signIn(name: string, password: string, create: boolean): Promise<void> {
  const me = create ? await api.register(name, password) : await api.signIn(name, password);
  account.name = me.name;
}

export async function signOut(): Promise<void> {
  await api.signOut();
  account.name = null;
}

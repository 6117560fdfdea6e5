/** HTTPS clients of `lb`, each sending from its own address on the bridge (a listener of its own). */
import { Agent, fetch as undiciFetch, type RequestInit, type Response } from 'undici';
import { CLIENT_ADDRESSES } from './netns.js';

const agents = new Map<string, Agent>();
let ca = '';

export function trustLb(certificate: string): void {
  ca = certificate;
}

/** fetch from client address number `i` (modulo the addresses there are). */
export function clientFetch(i: number, url: string, init: RequestInit = {}): Promise<Response> {
  const address = CLIENT_ADDRESSES[i % CLIENT_ADDRESSES.length]!;
  let agent = agents.get(address);
  if (!agent) {
    // The client's own option: undici's connector overrides `connect.localAddress` with it (null).
    agent = new Agent({ localAddress: address, connect: { ca } });
    agents.set(address, agent);
  }
  return undiciFetch(url, { ...init, dispatcher: agent });
}

export async function closeClients(): Promise<void> {
  await Promise.all([...agents.values()].map((a) => a.close()));
  agents.clear();
}

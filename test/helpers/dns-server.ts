/**
 * A DNS server on loopback for nginx's `resolver`: the compose service names (api, eval) mapped
 * to loopback addresses the test chooses and changes, as Docker's embedded DNS does when a
 * container is redeployed. A names only; an unknown name is NXDOMAIN, another type is empty.
 */
import { createSocket } from 'node:dgram';
import { once } from 'node:events';
import dnsPacket from 'dns-packet';

export interface TestDns {
  /** host:port for nginx's `resolver`. */
  address: string;
  /** Maps a name to an address, or removes it (undefined). */
  set(name: string, address: string | undefined): void;
  /** How many A questions were asked for a name (nginx re-resolving shows here). */
  asked(name: string): number;
  close(): Promise<void>;
}

export async function startTestDns(records: Record<string, string> = {}): Promise<TestDns> {
  const names = new Map(Object.entries(records));
  const questions = new Map<string, number>();
  const socket = createSocket('udp4');
  socket.on('message', (message, peer) => {
    let query;
    try {
      query = dnsPacket.decode(message);
    } catch {
      return;
    }
    const question = query.questions?.[0];
    if (!question) return;
    const name = question.name.toLowerCase();
    if (question.type === 'A') questions.set(name, (questions.get(name) ?? 0) + 1);
    const address = names.get(name);
    const reply = dnsPacket.encode({
      id: query.id,
      type: 'response',
      flags: dnsPacket.AUTHORITATIVE_ANSWER | (address === undefined ? 3 : 0), // rcode 3: NXDOMAIN
      questions: [question],
      answers:
        address !== undefined && question.type === 'A'
          ? [{ type: 'A', class: 'IN', name: question.name, ttl: 600, data: address }]
          : [],
    });
    socket.send(reply, peer.port, peer.address);
  });
  socket.bind(0, '127.0.0.1');
  await once(socket, 'listening');
  return {
    address: `127.0.0.1:${socket.address().port}`,
    set: (name, address) => {
      if (address === undefined) names.delete(name);
      else names.set(name, address);
    },
    asked: (name) => questions.get(name) ?? 0,
    close: async () => {
      socket.close();
      await once(socket, 'close');
    },
  };
}

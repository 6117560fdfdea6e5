/**
 * A DNS server for nginx's `resolver`: the compose service names (api, eval) mapped to addresses
 * the test chooses and changes, as Docker's embedded DNS does when a container is redeployed (a
 * name with several addresses is a service with several replicas: nginx balances over them). A
 * names only; an unknown name is NXDOMAIN, another type is empty.
 */
import { createSocket } from 'node:dgram';
import { once } from 'node:events';
import dnsPacket from 'dns-packet';

type Addresses = string | string[];

export interface TestDns {
  /** host:port for nginx's `resolver`. */
  address: string;
  /** Maps a name to its addresses, or removes it (undefined). */
  set(name: string, addresses: Addresses | undefined): void;
  /** How many A questions were asked for a name (nginx re-resolving shows here). */
  asked(name: string): number;
  close(): Promise<void>;
}

/** `bind`: the address to answer on (loopback, or a cluster's gateway its hosts can reach). */
export async function startTestDns(
  records: Record<string, Addresses> = {},
  bind = '127.0.0.1',
): Promise<TestDns> {
  const names = new Map(Object.entries(records).map(([name, addresses]) => [name, [addresses].flat()]));
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
    const addresses = names.get(name);
    const reply = dnsPacket.encode({
      id: query.id,
      type: 'response',
      flags: dnsPacket.AUTHORITATIVE_ANSWER | (addresses === undefined ? 3 : 0), // rcode 3: NXDOMAIN
      questions: [question],
      // TTL 600 as Docker's embedded DNS answers; the nginx template's `valid=5s` overrides it.
      answers:
        addresses !== undefined && question.type === 'A'
          ? addresses.map((data) => ({
              type: 'A' as const,
              class: 'IN' as const,
              name: question.name,
              ttl: 600,
              data,
            }))
          : [],
    });
    socket.send(reply, peer.port, peer.address);
  });
  socket.bind(0, bind);
  await once(socket, 'listening');
  return {
    address: `${bind}:${socket.address().port}`,
    set: (name, addresses) => {
      if (addresses === undefined) names.delete(name);
      else names.set(name, [addresses].flat());
    },
    asked: (name) => questions.get(name) ?? 0,
    close: async () => {
      socket.close();
      await once(socket, 'close');
    },
  };
}

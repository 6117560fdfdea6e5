/**
 * The cluster's DNS server (the part Docker's embedded DNS plays in compose): a name answers
 * every address the test gives it, so nginx's per-request resolution balances over both hosts.
 */
import { createSocket } from 'node:dgram';
import { once } from 'node:events';
import dnsPacket from 'dns-packet';

export interface ClusterDns {
  /** host:port for nginx's `resolver`. */
  address: string;
  close(): Promise<void>;
}

export async function startClusterDns(bind: string, names: Record<string, string[]>): Promise<ClusterDns> {
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
    const addresses = names[question.name.toLowerCase()];
    const reply = dnsPacket.encode({
      id: query.id,
      type: 'response',
      flags: dnsPacket.AUTHORITATIVE_ANSWER | (addresses === undefined ? 3 : 0), // 3: NXDOMAIN
      questions: [question],
      answers:
        addresses && question.type === 'A'
          ? addresses.map((data) => ({
              type: 'A' as const,
              class: 'IN' as const,
              name: question.name,
              ttl: 5,
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
    close: async () => {
      socket.close();
      await once(socket, 'close');
    },
  };
}

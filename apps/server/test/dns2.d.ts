/** The part of dns2 (which ships no types) that the loopback DNS server of admin-dns.test.ts uses. */
declare module 'dns2' {
  interface Resource {
    name: string;
    type: number;
    class: number;
    ttl: number;
    data?: string | string[];
    domain?: string;
  }
  interface DnsPacket {
    header: { id: number; rcode: number; tc: number };
    questions: { name: string; type: number }[];
    answers: Resource[];
  }
  interface DnsServer {
    listen(options: {
      udp?: { port: number; address: string; type: 'udp4' | 'udp6' };
      tcp?: { port: number; address: string };
    }): Promise<unknown>;
    close(): Promise<void>;
  }
  const dns2: {
    Packet: {
      TYPE: Record<'A' | 'CNAME' | 'TXT', number>;
      CLASS: Record<'IN', number>;
      createResponseFromRequest(request: DnsPacket): DnsPacket;
    };
    createServer(options: {
      udp?: boolean;
      tcp?: boolean;
      handle: (request: DnsPacket, send: (response: DnsPacket) => void, rinfo: object) => void;
    }): DnsServer;
  };
  export default dns2;
}

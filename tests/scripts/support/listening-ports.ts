/**
 * The TCP ports the processes of one process group listen on, read from Linux's /proc: what a
 * test asserts to say a process serves nothing, whatever port it might have picked.
 */
import fs from "node:fs";
import path from "node:path";

function readOrEmpty(file: string): string {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    // The process exited while we looked.
    return "";
  }
}

function groupOf(pid: string): number | null {
  // The command name, in parentheses, may hold spaces: the fields after it are counted from its end.
  const stat = readOrEmpty(path.join("/proc", pid, "stat"));
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const group = Number(fields[2]);
  return Number.isInteger(group) ? group : null;
}

function socketInodes(pid: string): string[] {
  let fds: string[];
  try {
    fds = fs.readdirSync(path.join("/proc", pid, "fd"));
  } catch {
    return [];
  }
  return fds.flatMap((fd) => {
    try {
      const target = fs.readlinkSync(path.join("/proc", pid, "fd", fd));
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      return inode ? [inode] : [];
    } catch {
      return [];
    }
  });
}

/** Listening sockets by inode, from /proc/net/tcp and tcp6 (state 0A is LISTEN). */
function listeningSockets(): Map<string, number> {
  const sockets = new Map<string, number>();
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    for (const line of readOrEmpty(table).split("\n").slice(1)) {
      const fields = line.trim().split(/\s+/);
      const [local, state, inode] = [fields[1], fields[3], fields[9]];
      if (state !== "0A" || local === undefined || inode === undefined) continue;
      sockets.set(inode, parseInt(local.slice(local.lastIndexOf(":") + 1), 16));
    }
  }
  return sockets;
}

/** The ports, sorted, that processes of process group `group` listen on. */
export function listeningPortsOfGroup(group: number): number[] {
  const members = fs.readdirSync("/proc").filter((entry) => /^\d+$/.test(entry) && groupOf(entry) === group);
  if (members.length === 0) throw new Error(`no process in group ${group}`);
  const listening = listeningSockets();
  const ports = members.flatMap((pid) => socketInodes(pid).flatMap((inode) => listening.get(inode) ?? []));
  return [...new Set(ports)].sort((a, b) => a - b);
}

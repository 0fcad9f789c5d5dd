#pragma once
// `kind: nvme-admin`: the NVMe admin commands, layered onto yaml/nvme's
// admin queue (a `kind: ring` behaviour) by a kind defined outside regemu.
//
// The ring keeps the queue mechanics: the doorbells, the heads and tails,
// the phase tag and the interrupt. This kind decides what each command
// does: each time the ring posts a completion (it stores the new completion
// tail, BehaviourContext::Store, which this kind hooks), it reads back the
// completion and the submission entry it answers, runs the command (Identify
// data into host memory, the table of I/O queues, the queue counts granted)
// and rewrites the completion's result (DW0) and status (DW3 31:17), the
// phase tag left as the ring wrote it. All of it happens inside the
// doorbell write that made the ring post, so the host never sees the ring's
// own answer.
//
// Commands (NVMe 2.0c §5 [M]; Linux nvme.h nvme_admin_opcode, struct nvme_id_ctrl):
//   Identify (06h)       CNS 01h: the Identify Controller structure (4096
//                        bytes) at PRP1 (and PRP2 past PRP1's page);
//                        CNS 00h with NSID 1: the Identify Namespace
//                        structure; NSID other than 1: Invalid Namespace or
//                        Format; other CNS values: Invalid Field in Command.
//   Create I/O CQ (05h)  Invalid Queue Identifier (QID 0, above the count
//                        granted, or in use), Invalid Queue Size (QSIZE 0 or
//                        above CAP.MQES).
//   Create I/O SQ (01h)  Completion Queue Invalid (CQID 0 or not created: an
//                        SQ before its CQ), then as Create I/O CQ.
//   Delete I/O SQ (00h)  Invalid Queue Identifier (QID 0 or not created).
//   Delete I/O CQ (04h)  Invalid Queue Identifier; Invalid Queue Deletion
//                        while an SQ still uses it.
//   Set Features (09h)   FID 07h Number of Queues: DW0 = NCQA << 16 | NSQA,
//                        each the request capped at max_io_queues (0's
//                        based); FFFFh requested: Invalid Field in Command;
//                        after I/O queues were created: Command Sequence
//                        Error. Other FIDs: Invalid Field in Command.
//   anything else        Invalid Command Opcode.
// Errors carry DNR (Do Not Retry), as QEMU's hw/nvme answers them. A
// Controller Reset (CC.EN 1 -> 0) forgets the I/O queues and the counts.
//
// The YAML (checked with located errors, every mistake at once):
//   - name: admin_commands
//     kind: nvme-admin
//     ring: admin                    # the `kind: ring` behaviour it answers for
//     memory: host                   # the memory space of queues and data
//     completion_tail: ADMIN_CQ_TAIL # the ring's `completion: tail:` register
//     vendor_id: ID.VID              # Identify VID and SSVID, from PCI config
//     subsystem_vendor_id: SS.SSVID
//     max_io_queues: 8               # I/O SQs (and CQs) granted at most
//     namespace_blocks: 0x100000     # NSZE = NCAP = NUSE, 512-byte blocks
//     serial: "REGEMU-0001"          # SN, MN, FR: ASCII, space padded
//     model: "regemu nvme-admin"
//     firmware: "1.0"
//     mdts: 7                        # optional (default 7); controller_id: optional (0)
// The controller registers are NVMe's own names, found in the database:
// CAP.MQES, VS, CC.EN, CC.MPS, AQA.ASQS, AQA.ACQS, ASQ and ACQ.

#include "regemu/emulator/behaviour_registry.hpp"

namespace nvme_plugin {

// The kind's three parts, for RegisterBehaviourKind.
regemu::emulator::BehaviourKindDefinition NvmeAdminKind();

// Registers `nvme-admin` once per process (later calls do nothing): call it
// before loading a database that names the kind.
void RegisterNvmeAdminKind();

}  // namespace nvme_plugin

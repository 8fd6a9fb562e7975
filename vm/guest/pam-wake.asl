/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * An SSDT for 32-bit guests (vm/guest/pclguest.py passes it with
 * -acpitable): the firmware keeps the host bridge's upper memory decoding
 * across suspend to RAM, as a laptop's BIOS does.
 *
 * A 32-bit kernel keeps the VGA hole for itself, so rootfs/sbin/
 * pcl-socket-startup gives the PC Card sockets 0xd0000-0xdffff and
 * switches the i440FX's shadow RAM off there (PAM3 and PAM4 to 0: the
 * block goes to PCI and ISA, where the bridges' memory windows are).
 * QEMU restarts SeaBIOS on a wake from S3, and its resume path
 * (make_bios_readonly()) sets PAM1-PAM5 back to read-only shadow RAM;
 * the kernel restores only the standard PCI header of the host bridge.
 * Without this table the PC Card core then reads RAM where it verifies
 * the card's CIS (socket_late_resume(), pcmcia_bus_early_resume()),
 * takes the card for another one and removes it, and cannot read the
 * new one's CIS either: the card is gone after resume.
 *
 * \_PTS saves the two registers on the way to sleep, \_WAK puts them back
 * before the kernel resumes any device (acpi_pm_finish() runs \_WAK
 * ahead of the noirq phase).  QEMU's DSDT defines neither method.
 */
DefinitionBlock ("", "SSDT", 2, "PCL", "PAMWAKE", 1)
{
    External (\_SB.PCI0, DeviceObj)

    Scope (\_SB.PCI0)
    {
        /* PCI0 is bus 0, device 0: the i440FX's configuration space */
        OperationRegion (UMBD, PCI_Config, 0x5C, 2)
        Field (UMBD, ByteAcc, NoLock, Preserve)
        {
            PAM3, 8,    /* 0xd0000-0xd7fff */
            PAM4, 8     /* 0xd8000-0xdffff */
        }

        /* what SeaBIOS leaves there at boot */
        Name (SPM3, 0x11)
        Name (SPM4, 0x11)
    }

    Method (\_PTS, 1, NotSerialized)
    {
        \_SB.PCI0.SPM3 = \_SB.PCI0.PAM3
        \_SB.PCI0.SPM4 = \_SB.PCI0.PAM4
    }

    Method (\_WAK, 1, NotSerialized)
    {
        \_SB.PCI0.PAM3 = \_SB.PCI0.SPM3
        \_SB.PCI0.PAM4 = \_SB.PCI0.SPM4
        Return (Package (0x02) { Zero, Zero })
    }
}

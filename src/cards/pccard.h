/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * How every card driver here configures its card: the configuration the
 * driver chose, or the first one of the card's CIS that fits the socket,
 * then the card enabled with it.  A card that cannot be configured is
 * refused with a message saying why, never in silence.
 */
#ifndef PCL_PCCARD_H
#define PCL_PCCARD_H

#include <linux/device.h>
#include <pcmcia/cistpl.h>
#include <pcmcia/ds.h>

/* The first configuration of the CIS that @check takes; -ENODEV if none. */
static inline int pcl_card_loop_config(struct pcmcia_device *link,
				       int (*check)(struct pcmcia_device *p_dev,
						    void *priv),
				       void *priv)
{
	if (!pcmcia_loop_config(link, check, priv))
		return 0;
	dev_err(&link->dev,
		"no configuration in the card's CIS fits this socket\n");
	return -ENODEV;
}

/* Enable the configuration set up in @link (with its interrupt if asked). */
static inline int pcl_card_enable(struct pcmcia_device *link)
{
	int rc;

	if ((link->config_flags & CONF_ENABLE_IRQ) && !link->irq) {
		dev_err(&link->dev, "the socket has no interrupt for the card\n");
		return -ENODEV;
	}
	rc = pcmcia_enable_device(link);
	if (rc)
		dev_err(&link->dev, "the socket cannot configure the card (%d)\n",
			rc);
	return rc;
}

#endif /* PCL_PCCARD_H */

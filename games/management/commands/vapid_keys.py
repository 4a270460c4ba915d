"""``python manage.py vapid_keys``: a new VAPID key pair for Web Push, made once per site."""

import base64

from cryptography.hazmat.primitives.asymmetric import ec
from django.core.management.base import BaseCommand, CommandParser

from yahtzee_site.env import vapid_public_key


class Command(BaseCommand):
    help = (
        "Print a new VAPID private key for the VAPID_PRIVATE_KEY environment variable. Make it "
        "once and keep it like SECRET_KEY: a new key orphans every browser's subscription."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--private-key", action="store_true", help="print the private key alone (for a file)"
        )

    def handle(self, *args: object, **options: object) -> None:
        key = ec.generate_private_key(ec.SECP256R1())
        raw = key.private_numbers().private_value.to_bytes(32, "big")
        private = base64.urlsafe_b64encode(raw).rstrip(b"=").decode()
        if options["private_key"]:
            self.stdout.write(private)
            return
        self.stdout.write(f"VAPID_PRIVATE_KEY={private}")
        self.stdout.write(
            f"# Its public key, which browsers are given: {vapid_public_key(private)}"
        )

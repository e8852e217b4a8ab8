from enum import Enum


class FieldErrorField(str, Enum):
    ENDPOINT = "endpoint"
    EXPIRATIONTIME = "expirationTime"
    KEYS_AUTH = "keys.auth"
    KEYS_P256DH = "keys.p256dh"
    NEW_PASSWORD = "new_password"
    PASSWORD = "password"
    URL = "url"
    USERNAME = "username"

    def __str__(self) -> str:
        return str(self.value)

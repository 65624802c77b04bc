package herdhash

import "fmt"

func splitC(body string) (string, string, error) { return "", "", fmt.Errorf("C: not yet") }
func cCodeText(code string) (string, error)      { return "", fmt.Errorf("C: not yet") }
